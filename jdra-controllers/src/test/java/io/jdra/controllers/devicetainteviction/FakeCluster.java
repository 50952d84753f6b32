package io.jdra.controllers.devicetainteviction;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1beta2.DeviceTaintRuleBuilder;
import io.jdra.runtime.cache.Lister;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An in-memory API server plus informers for unit tests: writes go to the store and are delivered
 * to the controller's handlers at once, in the calling thread (an informer without lag). The pod
 * lister reads the same store. Single-threaded use.
 */
final class FakeCluster implements EvictionClient {
  private final Map<String, Pod> pods = new LinkedHashMap<>();
  private final Map<String, DeviceTaintRule> rules = new LinkedHashMap<>();
  private EvictionTracker tracker;

  final List<PodRef> deleted = new ArrayList<>();
  final List<String> calls = new ArrayList<>();
  int ruleStatusWrites;

  /** How many of the next API calls whose description starts with {@link #failOn} fail. */
  int failNext;

  String failOn = "";

  void connect(EvictionTracker tracker) {
    this.tracker = tracker;
  }

  final Lister<Pod> podLister =
      new Lister<>() {
        @Override
        public Optional<Pod> get(String namespace, String name) {
          return Optional.ofNullable(pods.get(namespace + "/" + name));
        }

        @Override
        public List<Pod> list() {
          return List.copyOf(pods.values());
        }

        @Override
        public List<Pod> list(String namespace) {
          return pods.values().stream()
              .filter(p -> p.getMetadata().getNamespace().equals(namespace))
              .toList();
        }

        @Override
        public List<Pod> byIndex(String indexName, String key) {
          throw new UnsupportedOperationException();
        }
      };

  // ---- informer events as tests feed them --------------------------------------------------

  void apply(Object oldObj, Object newObj) {
    Object any = newObj != null ? newObj : oldObj;
    switch (any) {
      case Pod p -> {
        if (newObj == null) {
          pods.remove(key(p));
        } else {
          pods.put(key(p), (Pod) newObj);
        }
        tracker.handlePodChange((Pod) oldObj, (Pod) newObj);
      }
      case ResourceClaim c ->
          tracker.handleClaimChange((ResourceClaim) oldObj, (ResourceClaim) newObj);
      case ResourceSlice s ->
          tracker.handleSliceChange((ResourceSlice) oldObj, (ResourceSlice) newObj);
      case DeviceTaintRule r -> {
        if (newObj == null) {
          rules.remove(r.getMetadata().getName());
        } else {
          rules.put(r.getMetadata().getName(), (DeviceTaintRule) newObj);
        }
        tracker.handleRuleChange((DeviceTaintRule) oldObj, (DeviceTaintRule) newObj);
      }
      default -> throw new IllegalArgumentException("unsupported object " + any);
    }
  }

  Pod pod(String namespace, String name) {
    return pods.get(namespace + "/" + name);
  }

  DeviceTaintRule rule(String name) {
    return rules.get(name);
  }

  private static String key(Pod p) {
    return p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
  }

  private void maybeFail(String call) {
    calls.add(call);
    if (failNext > 0 && call.startsWith(failOn)) {
      failNext--;
      throw new IllegalStateException("injected failure of " + call);
    }
  }

  // ---- EvictionClient ----------------------------------------------------------------------

  @Override
  public Optional<Pod> getPod(String namespace, String name) {
    maybeFail("get pod " + namespace + "/" + name);
    return Optional.ofNullable(pods.get(namespace + "/" + name));
  }

  @Override
  public void setPodCondition(Pod pod, PodCondition condition) {
    maybeFail("patch pod status " + key(pod));
    Pod old = pods.get(key(pod));
    if (old == null || !old.getMetadata().getUid().equals(pod.getMetadata().getUid())) {
      throw new IllegalStateException("precondition failed");
    }
    Pod updated =
        new PodBuilder(old)
            .editOrNewStatus()
            .removeMatchingFromConditions(c -> c.getType().equals(condition.getType()))
            .addToConditions(condition)
            .endStatus()
            .build();
    apply(old, updated);
  }

  @Override
  public boolean deletePod(PodRef ref) {
    maybeFail("delete pod " + ref);
    Pod old = pods.get(ref.namespace() + "/" + ref.name());
    if (old == null || !old.getMetadata().getUid().equals(ref.uid())) {
      return false;
    }
    deleted.add(ref);
    apply(old, null);
    return true;
  }

  @Override
  public boolean applyRuleCondition(
      String name, String uid, Condition condition, String fieldManager) {
    maybeFail("apply rule status " + name);
    DeviceTaintRule old = rules.get(name);
    if (old == null || !old.getMetadata().getUid().equals(uid)) {
      return false;
    }
    ruleStatusWrites++;
    List<Condition> conditions = new ArrayList<>();
    if (old.getStatus() != null) {
      old.getStatus().getConditions().stream()
          .filter(c -> !c.getType().equals(condition.getType()))
          .forEach(conditions::add);
    }
    conditions.add(condition);
    DeviceTaintRule updated =
        new DeviceTaintRuleBuilder(old)
            .withNewStatus()
            .withConditions(conditions)
            .endStatus()
            .build();
    apply(old, updated);
    return true;
  }
}
