import type { FastifyInstance } from 'fastify';
import { ReviewFile } from '../../schemas/api';
import type { AppContext } from '../app';

/** `GET /api/material`, `/api/cards`, `/api/notes`: each file as a state (ok, missing, invalid-json, invalid-schema). */
export function fileRoutes(api: FastifyInstance, context: AppContext): void {
  // A state is serialised once per version of its file: material.json can be megabytes.
  const serialised = new WeakMap<object, string>();
  for (const file of ReviewFile.options) {
    api.get(`/${file}`, async (_request, reply) => {
      const { state } = await context.files.read(file);
      let json = serialised.get(state);
      if (json === undefined) {
        json = JSON.stringify(state);
        serialised.set(state, json);
      }
      return reply.type('application/json; charset=utf-8').send(json);
    });
  }
}
