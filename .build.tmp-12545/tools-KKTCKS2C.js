import { createRequire as __venueCreateRequire } from 'node:module'; const require = __venueCreateRequire(import.meta.url);
import {
  TOOL_INPUTS,
  TOOL_NAMES,
  createTools
} from "./chunk-Z2QEEHZN.js";
import "./chunk-VP4IMZ74.js";
import "./chunk-D2NJZ3J4.js";
export {
  TOOL_INPUTS,
  TOOL_NAMES,
  createTools
};
