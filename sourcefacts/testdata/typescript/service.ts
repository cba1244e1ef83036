import { Injectable } from '@angular/core';
import type { Config } from './config';

export interface Store {
  get(key: string): string;
}

export class Service implements Store {
  private cache: Map<string, string> = new Map();

  get(key: string): string {
    return this.cache.get(key) ?? fetchValue(key);
  }
}

export function fetchValue(key: string): string {
  return key.toUpperCase();
}

namespace Util {
  export function id<T>(x: T): T { return x; }
}

type Alias = Service;
