'use strict';
module.exports = require('@strapi/strapi').factories.createCoreRouter('api::homepage.homepage');
