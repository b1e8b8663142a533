import type { EventChannel } from '../event-channel.js';
import type { StudioRouteModule } from '../server/studio-env.js';

/** `GET /api/events`: the live channel (Server-Sent Events: `StudioEvent`, `WorkflowEvent`). */
export function eventsRoute(channel: EventChannel): StudioRouteModule {
  return {
    mount(app) {
      app.get('/api/events', (c) => channel.connect(c));
    },
  };
}
