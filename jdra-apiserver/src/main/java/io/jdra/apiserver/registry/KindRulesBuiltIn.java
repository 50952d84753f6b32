package io.jdra.apiserver.registry;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The rules of the built-in kinds that differ from the generic registry's. */
final class KindRulesBuiltIn {
  private KindRulesBuiltIn() {}

  /**
   * Namespaces (upstream {@code pkg/registry/core/namespace}): created Active with the {@code
   * kubernetes} finalizer in {@code spec.finalizers}, which only the finalize subresource changes;
   * deleting one makes it Terminating until those finalizers are gone.
   */
  static final KindRules NAMESPACE =
      new KindRules() {
        @Override
        public void prepareForCreate(ResourceType t, ObjectNode obj) {
          ArrayNode f = child(obj, "spec").putArray("finalizers");
          f.add("kubernetes");
          obj.putObject("status").put("phase", "Active");
        }

        @Override
        public void prepareForUpdate(ObjectNode next, ObjectNode old) {
          JsonNode f = old.path("spec").get("finalizers");
          if (f != null) {
            child(next, "spec").set("finalizers", f.deepCopy()); // old is read only
          }
        }

        @Override
        public boolean holdsDeletion(ObjectNode obj) {
          JsonNode f = obj.path("spec").get("finalizers");
          return f != null && !f.isEmpty();
        }

        @Override
        public void startDeletion(ObjectNode obj) {
          if (holdsDeletion(obj)) {
            child(obj, "status").put("phase", "Terminating");
          }
        }
      };

  /**
   * Pods (upstream {@code pkg/registry/core/pod}): created Pending; a pod bound to a node that has
   * not finished is deleted gracefully (its kubelet, or a grace-0 delete, removes it).
   */
  static final KindRules POD =
      new KindRules() {
        @Override
        public void prepareForCreate(ResourceType t, ObjectNode obj) {
          ObjectNode s = obj.putObject("status");
          s.put("phase", "Pending");
          s.put("qosClass", "BestEffort");
        }

        @Override
        public boolean holdsDeletion(ObjectNode pod) {
          return boundAndActive(pod);
        }

        @Override
        public Long gracePeriodSeconds(ObjectNode pod, Long requested) {
          if (!boundAndActive(pod)) {
            return null;
          }
          if (requested != null) {
            return requested;
          }
          JsonNode tg = pod.path("spec").get("terminationGracePeriodSeconds");
          return tg != null && tg.isNumber() ? tg.asLong() : 30;
        }
      };

  /** Nodes: the kubelet creates its Node with its status. */
  static final KindRules NODE =
      new KindRules() {
        @Override
        public void prepareForCreate(ResourceType t, ObjectNode obj) {}
      };

  /** batch/v1 Jobs orphan their pods when a delete names no policy, as upstream keeps. */
  static final KindRules JOB =
      new KindRules() {
        @Override
        public String defaultPropagationPolicy() {
          return "Orphan";
        }
      };

  /** Bound to a node, not finished, and not being deleted with grace 0. */
  static boolean boundAndActive(ObjectNode pod) {
    String node = pod.path("spec").path("nodeName").asString("");
    String phase = pod.path("status").path("phase").asString("");
    JsonNode meta = pod.path("metadata");
    boolean zeroGrace =
        meta.path("deletionGracePeriodSeconds").asLong(-1) == 0 && meta.has("deletionTimestamp");
    return !node.isEmpty() && !phase.equals("Succeeded") && !phase.equals("Failed") && !zeroGrace;
  }

  private static ObjectNode child(ObjectNode obj, String field) {
    JsonNode c = obj.get(field);
    if (c instanceof ObjectNode o) {
      return o;
    }
    return obj.putObject(field);
  }
}
