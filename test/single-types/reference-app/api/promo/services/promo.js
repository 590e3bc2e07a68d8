'use strict';
module.exports = require('@strapi/strapi').factories.createCoreService('api::promo.promo');
