import type { TestProject } from 'vitest/node';
import { findChromium } from './chromium.js';

/** vitest globalSetup: finds the browser tests' Chromium once per run (see chromium.ts). */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromium', await findChromium());
}
