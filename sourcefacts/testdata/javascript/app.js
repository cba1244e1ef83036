import fs from 'fs';
import * as path from "path";
import { a, b as c } from './lib.js';
import './side-effect.js';
const util = require('util');
require('dotenv').config();

/** Greeter says hello. */
class Greeter extends Base {
  constructor(name) {
    super();
    this.name = name;
  }

  // greet returns a greeting.
  greet() {
    return format(this.name) + path.join('a', 'b');
  }
}

function main() {
  const g = new Greeter('x');
  g.greet();
}

const arrow = (x) => x * 2;

export default main;
