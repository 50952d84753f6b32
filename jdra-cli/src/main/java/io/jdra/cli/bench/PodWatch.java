package io.jdra.cli.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * One informer on every pod, as scheduler_perf's pod informer: counts scheduled pods per namespace
 * from its cache and tells listeners when a pod is first seen with a node. Handlers only record and
 * hand on; listeners must not block.
 */
final class PodWatch implements AutoCloseable {
  private final SharedIndexInformer<Pod> informer;
  private final List<Consumer<Pod>> onScheduled = new CopyOnWriteArrayList<>();

  PodWatch(KubernetesClient c) {
    informer =
        c.pods()
            .inAnyNamespace()
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Pod p) {
                    if (p.getSpec().getNodeName() != null) {
                      scheduled(p);
                    }
                  }

                  @Override
                  public void onUpdate(Pod o, Pod p) {
                    if (o.getSpec().getNodeName() == null && p.getSpec().getNodeName() != null) {
                      scheduled(p);
                    }
                  }

                  @Override
                  public void onDelete(Pod p, boolean unknown) {}
                },
                0);
  }

  private void scheduled(Pod p) {
    for (Consumer<Pod> l : onScheduled) {
      l.accept(p);
    }
  }

  void addListener(Consumer<Pod> l) {
    onScheduled.add(l);
  }

  void removeListener(Consumer<Pod> l) {
    onScheduled.remove(l);
  }

  /** Pods in the namespace that have a node, and all pods there, from the cache. */
  int[] counts(String namespace) {
    int scheduled = 0;
    int all = 0;
    for (Pod p : informer.getStore().list()) {
      if (namespace.equals(p.getMetadata().getNamespace())) {
        all++;
        if (p.getSpec().getNodeName() != null) {
          scheduled++;
        }
      }
    }
    return new int[] {scheduled, all};
  }

  @Override
  public void close() {
    informer.close();
  }
}
