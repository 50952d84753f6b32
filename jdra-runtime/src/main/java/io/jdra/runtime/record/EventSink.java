package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.events.v1.Event;

/**
 * Where the recorder writes its events (upstream's {@code tools/events} EventSink). Failures are
 * {@link io.fabric8.kubernetes.client.KubernetesClientException}s: with the HTTP status when the
 * API server answered, without one (a code below 1) when the request did not get an answer. Called
 * from many threads at once.
 */
interface EventSink {
  /** Creates the event (POST). */
  void create(Event event);

  /** Patches the event with a strategic merge patch (its series). */
  void patch(Event event, String patch);
}
