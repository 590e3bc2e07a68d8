'use strict';
module.exports = require('@strapi/strapi').factories.createCoreController('api::promo.promo');
