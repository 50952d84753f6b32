package io.jdra.controllers.testing;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.impl.cache.CacheImpl;
import io.jdra.runtime.Ctx;
import io.jdra.runtime.clock.FakeClock;
import io.jdra.runtime.record.EventRecorder;
import io.jdra.runtime.record.FakeEventRecorder;
import io.jdra.runtime.workqueue.MockQueue;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What every controller's unit-test harness has: one case's world of objects written to the
 * embedded API server in a namespace of its own, a pod cache the test fills itself (so it may lag
 * behind the server), a fake clock, a mock queue and recorded events. Each controller's {@code
 * Harness} extends it with its own caches, builders and {@code controller()}.
 */
public abstract class ControllerHarness {
  public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  public final KubernetesClient client;
  public final String ns;
  public final FakeClock clock = new FakeClock(T0);
  public final Ctx ctx = Ctx.forTest(clock);
  public final MockQueue<String> queue = new MockQueue<>();
  public final FakeEventRecorder events = EventRecorder.fake();
  public final CacheImpl<Pod> pods = new CacheImpl<>();

  /** Creates the case's namespace, {@code nsPrefix} plus a random suffix. */
  protected ControllerHarness(KubernetesClient client, String nsPrefix) {
    this.client = client;
    this.ns = nsPrefix + UUID.randomUUID().toString().substring(0, 8);
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
  }

  /** The object with the case's namespace set. */
  public <T extends HasMetadata> T inNs(T obj) {
    obj.getMetadata().setNamespace(ns);
    return obj;
  }

  /** Creates the pod (and its status, if it has one) in the server and caches the result. */
  public Pod pod(Pod p) {
    Pod created = client.pods().inNamespace(ns).resource(inNs(p)).create();
    if (p.getStatus() != null) {
      created =
          client
              .pods()
              .inNamespace(ns)
              .resource(new PodBuilder(created).withStatus(p.getStatus()).build())
              .updateStatus();
    }
    pods.put(created);
    return created;
  }

  public List<Pod> serverPods() {
    return client.pods().inNamespace(ns).list().getItems();
  }

  /** The pod cache catches up with the server, as an informer would; returns the server's pods. */
  public List<Pod> catchUpPods() {
    for (Pod p : List.copyOf(pods.list())) {
      if (p.getMetadata().getNamespace().equals(ns)) {
        pods.remove(p);
      }
    }
    List<Pod> now = serverPods();
    now.forEach(pods::put);
    return now;
  }
}
