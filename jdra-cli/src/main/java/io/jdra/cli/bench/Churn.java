package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The churn op: background load on the API server and the scheduler's event handlers until the
 * workload ends. Every interval, {@code create} mode makes one more object from each template (up
 * to {@code number} each, 0 = no limit) and {@code recreate} mode makes {@code number} objects of
 * each template and then deletes the oldest while making new ones, as upstream's churn does.
 * Namespaced objects go to namespace {@code churn}.
 */
final class Churn {
  static final String NAMESPACE = "churn";

  private final Thread thread;
  private volatile boolean stopped;

  private Churn(Thread thread) {
    this.thread = thread;
  }

  static Churn start(
      KubernetesClient c, Templates templates, Op.Churn op, Consumer<String> ensureNamespace) {
    if (!op.mode().equals("create") && !op.mode().equals("recreate")) {
      throw new IllegalArgumentException("churn: mode " + op.mode() + " is not create or recreate");
    }
    if (op.templatePaths().isEmpty()) {
      throw new IllegalArgumentException("churn: templatePaths is empty");
    }
    ensureNamespace.accept(NAMESPACE);
    Churn[] self = new Churn[1];
    Thread t =
        Thread.ofPlatform()
            .name("bench-churn")
            .daemon()
            .unstarted(() -> self[0].loop(c, templates, op));
    self[0] = new Churn(t);
    t.start();
    return self[0];
  }

  private void loop(KubernetesClient c, Templates templates, Op.Churn op) {
    List<Deque<HasMetadata>> live = new ArrayList<>();
    op.templatePaths().forEach(p -> live.add(new ArrayDeque<>()));
    long made = 0;
    while (!stopped) {
      for (int k = 0; k < op.templatePaths().size(); k++) {
        Deque<HasMetadata> objs = live.get(k);
        if (op.mode().equals("recreate") && op.number() > 0 && objs.size() >= op.number()) {
          c.resource(objs.removeFirst()).delete();
        }
        if (op.mode().equals("create") && op.number() > 0 && made >= op.number()) {
          continue;
        }
        HasMetadata o =
            templates.render(op.templatePaths().get(k), Map.of("Index", made), HasMetadata.class);
        o.getMetadata().setName(null);
        o.getMetadata().setGenerateName("churn-");
        if (namespaced(o)) {
          o.getMetadata().setNamespace(NAMESPACE);
        }
        objs.addLast(c.resource(o).create());
      }
      made++;
      try {
        Thread.sleep(op.interval().toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  // The cluster-scoped kinds scheduler_perf's churn templates use; everything else is namespaced.
  private static boolean namespaced(HasMetadata o) {
    return !java.util.Set.of("Node", "Namespace", "DeviceClass", "ResourceSlice", "DeviceTaintRule")
        .contains(o.getKind());
  }

  void stop() {
    stopped = true;
    thread.interrupt();
  }
}
