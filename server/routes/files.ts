import type { FastifyInstance } from 'fastify';
import { ReviewFile } from '../../schemas/api';
import type { AppContext } from '../app';

/** `GET /api/material`, `/api/cards`, `/api/notes`: each file as a state (ok, missing, invalid-json, invalid-schema). */
export function fileRoutes(api: FastifyInstance, context: AppContext): void {
  for (const file of ReviewFile.options) {
    api.get(`/${file}`, async () => (await context.files.read(file)).state);
  }
}
