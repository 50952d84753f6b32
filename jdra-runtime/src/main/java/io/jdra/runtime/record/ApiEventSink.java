package io.jdra.runtime.record;

import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.runtime.client.ApiRequests;

/**
 * Writes events with {@link ApiRequests}: the body is written once and the API server's answer is
 * not decoded (the recorder never reads it, as upstream keeps the server's copy out of its cache).
 */
final class ApiEventSink implements EventSink {
  private static final ApiRequests.Patch STRATEGIC_MERGE = ApiRequests.Patch.strategicMerge();

  private final ApiRequests.Resource<Void> events;

  ApiEventSink(KubernetesClient client) {
    this.events = new ApiRequests(client).resource("events.k8s.io/v1", "events", Void.class);
  }

  @Override
  public void create(Event event) {
    events.create(event.getMetadata().getNamespace(), event);
  }

  @Override
  public void patch(Event event, String patch) {
    events.patch(
        event.getMetadata().getNamespace(), event.getMetadata().getName(), STRATEGIC_MERGE, patch);
  }
}
