"use strict"

import schema from "./schema";

export default {
  schema
};
