"use strict"

import item from "./item";
import navigation from "./navigation";

export default {
  "item": item,
  "navigation": navigation,
};
