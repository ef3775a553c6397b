import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
var __defProp = Object.defineProperty;
var __name = (target, value) => __defProp(target, "name", { value, configurable: true });

export {
  __name
};
