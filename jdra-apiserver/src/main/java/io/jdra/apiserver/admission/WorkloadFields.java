package io.jdra.apiserver.admission;

import io.jdra.api.features.Feature;
import io.jdra.api.features.FeatureGates;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Drops the gated fields of workload scheduling, as upstream's strategies do, unless the stored
 * object already uses them: {@code pod.spec.schedulingGroup} without GenericWorkload ({@code
 * dropDisabledPodFields}); a PodGroup's {@code spec.resourceClaims} and a Workload's {@code
 * spec.podGroupTemplates[].resourceClaims} without DRAWorkloadResourceClaims. A pod whose group was
 * dropped is scheduled on its own and gets its own claims, as on such a cluster.
 */
final class WorkloadFields {
  private final boolean genericWorkload;
  private final boolean workloadClaims;

  WorkloadFields(FeatureGates gates) {
    this.genericWorkload = gates.enabled(Feature.GENERIC_WORKLOAD);
    this.workloadClaims = gates.enabled(Feature.DRA_WORKLOAD_RESOURCE_CLAIMS);
  }

  void drop(Admission.Request r) {
    ObjectNode obj = r.object();
    if (obj == null || !"".equals(r.subresource()) && !"status".equals(r.subresource())) {
      return;
    }
    String key = r.type().group() + "/" + r.type().kind();
    switch (key) {
      case "/Pod" -> {
        if (!genericWorkload && !inUse(r.oldObject(), "spec", "schedulingGroup")) {
          spec(obj).ifPresent(s -> s.remove("schedulingGroup"));
        }
      }
      case "scheduling.k8s.io/PodGroup" -> {
        if (!workloadClaims && !inUse(r.oldObject(), "spec", "resourceClaims")) {
          spec(obj).ifPresent(s -> s.remove("resourceClaims"));
        }
      }
      case "scheduling.k8s.io/Workload" -> {
        if (!workloadClaims && !workloadTemplatesUseClaims(r.oldObject())) {
          spec(obj)
              .map(s -> s.get("podGroupTemplates"))
              .filter(JsonNode::isArray)
              .ifPresent(ts ->
                  ts.forEach(t -> {
                    if (t instanceof ObjectNode o) {
                      o.remove("resourceClaims");
                    }
                  }));
        }
      }
      default -> {}
    }
  }

  private static java.util.Optional<ObjectNode> spec(ObjectNode obj) {
    return obj.get("spec") instanceof ObjectNode s
        ? java.util.Optional.of(s)
        : java.util.Optional.empty();
  }

  private static boolean inUse(ObjectNode old, String parent, String field) {
    if (old == null || !(old.get(parent) instanceof ObjectNode p)) {
      return false;
    }
    JsonNode v = p.get(field);
    return v != null && !v.isNull() && !(v.isArray() && v.isEmpty());
  }

  private static boolean workloadTemplatesUseClaims(ObjectNode old) {
    if (old == null || !(old.get("spec") instanceof ObjectNode s)) {
      return false;
    }
    JsonNode ts = s.get("podGroupTemplates");
    if (ts == null || !ts.isArray()) {
      return false;
    }
    for (JsonNode t : ts) {
      JsonNode c = t.get("resourceClaims");
      if (c != null && c.isArray() && !c.isEmpty()) {
        return true;
      }
    }
    return false;
  }
}
