package io.jdra.apiserver.controllers;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.rest.DeleteOptions;
import io.jdra.apiserver.rest.ObjectService;
import io.jdra.apiserver.rest.WriteOptions;
import io.jdra.apiserver.storage.ResourceStore;
import io.jdra.apiserver.storage.StoredObject;
import io.jdra.apiserver.storage.WatchEvent;
import io.jdra.apiserver.storage.WatchListener;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Finishes namespace deletion as upstream's namespace controller: deletes everything in a
 * terminating namespace, then removes the {@code kubernetes} finalizer so the namespace goes. Work
 * runs on the given executor; the store listener only enqueues.
 */
public final class NamespaceController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceController.class);

  private final ObjectService service;
  private final ScheduledExecutorService executor;
  private final Set<String> pending = ConcurrentHashMap.newKeySet();
  private final ResourceType nsType;
  private Runnable cancel = () -> {};

  public NamespaceController(ObjectService service, ScheduledExecutorService executor) {
    this.service = service;
    this.executor = executor;
    this.nsType = service.registry().find("", "v1", "namespaces").orElseThrow();
  }

  public void start() {
    ResourceStore store = service.store(nsType);
    cancel =
        store.watchFromNow(
            o -> true,
            new WatchListener() {
              @Override
              public void onEvent(WatchEvent e) {
                if (e.type() != WatchEvent.Type.DELETED
                    && "Terminating".equals(e.object().fields().get("status.phase"))
                    && pending.add(e.object().name())) {
                  executor.execute(() -> sync(e.object().name()));
                }
              }
            });
  }

  private void sync(String ns) {
    pending.remove(ns);
    try {
      if (removeContent(ns) > 0) {
        pending.add(ns);
        executor.schedule(() -> sync(ns), 200, TimeUnit.MILLISECONDS);
        return;
      }
      finalizeNamespace(ns);
    } catch (ApiException e) {
      if (e.code() != 404) {
        LOG.warn("Namespace cleanup failed, retrying: namespace={} error={}", ns, e.getMessage());
        pending.add(ns);
        executor.schedule(() -> sync(ns), 1, TimeUnit.SECONDS);
      }
    } catch (RuntimeException e) {
      LOG.error("Namespace cleanup failed: namespace={}", ns, e);
    }
  }

  /** Deletes what is left; returns how many objects still exist. */
  private int removeContent(String ns) {
    int left = 0;
    for (ResourceType t : service.registry().stored()) {
      if (!t.namespaced()) {
        continue;
      }
      for (StoredObject o : service.store(t).list(ns, null, x -> true, 0).items()) {
        left++;
        try {
          service.delete(t, ns, o.name(), DeleteOptions.DEFAULT);
        } catch (ApiException e) {
          if (e.code() != 404 && e.code() != 409) {
            throw e;
          }
        }
      }
    }
    return left;
  }

  private void finalizeNamespace(String ns) {
    service.guaranteedUpdate(
        nsType,
        "",
        ns,
        "finalize",
        0,
        WriteOptions.DEFAULT,
        obj -> {
          ObjectNode spec = Json.child(obj, "spec");
          ArrayNode kept = spec.putArray("finalizers");
          Json.parseObject(service.get(nsType, "", ns).json())
              .at("/spec/finalizers")
              .forEach(f -> {
                if (!f.asString().equals("kubernetes")) {
                  kept.add(f);
                }
              });
          return obj;
        });
  }

  @Override
  public void close() {
    cancel.run();
  }
}
