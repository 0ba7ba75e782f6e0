/**
 * Migrates one SQLite file for the run: each test app starts on a copy of it instead of running
 * every migration again.
 */
import type { TestProject } from 'vitest/node';
import { migratedTemplateFile } from './templates.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await migratedTemplateFile();
  project.provide('sqliteTemplate', template.file);
  return template.remove;
}
