package io.jdra.apiserver.admission;

import static io.jdra.apiserver.admission.Trees.obj;
import static io.jdra.apiserver.admission.Trees.str;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Defaulting and the default admission plugins of the built-in kinds outside resource.k8s.io, in
 * kube-apiserver's order: the decoder's defaults ({@link CoreDefaults}) on every write; the Job
 * create strategy's generated selector; for pods (the main resource only) DefaultTolerationSeconds
 * (create and update), ServiceAccount (create: the {@code default} account, without token volumes)
 * and Priority (create: priority and preemption policy of the class, 0 and PreemptLowerPriority
 * without one, as a cluster without a global default class; update: kept from the stored pod).
 * Walks the JSON tree in place; stateless and thread-safe.
 */
public final class CoreAdmission implements Admission {
  private static final String NOT_READY = "node.kubernetes.io/not-ready";
  private static final String UNREACHABLE = "node.kubernetes.io/unreachable";
  private static final long DEFAULT_TOLERATION_SECONDS = 300;
  private static final String PREEMPT_LOWER = "PreemptLowerPriority";
  private static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

  @Override
  public List<Cause> admit(Request r) {
    if (DraAdmission.handles(r.type())) {
      return List.of();
    }
    ObjectNode obj = r.object();
    CoreDefaults.apply(r.type(), obj);
    boolean create = r.operation() == Operation.CREATE;
    boolean main = r.subresource().isEmpty();
    switch (r.type().group() + "/" + r.type().kind()) {
      case "batch/Job" -> {
        if (create) {
          JobSelector.generateIfNeeded(obj);
        }
        CoreDefaults.jobLabels(obj);
        return main ? jobRestartPolicy(obj) : List.of();
      }
      case "/Pod" -> {
        if (main) {
          List<Cause> missing = requiredContainers(obj);
          if (!missing.isEmpty()) {
            return missing;
          }
          pod(r, obj, create);
        }
      }
      default -> {}
    }
    return List.of();
  }

  /**
   * Upstream's pod validation requires at least one container, on create and on update: a spec
   * removed by a patch (e.g. a strategic {@code $patch: replace}) is refused, not stored.
   */
  private static List<Cause> requiredContainers(ObjectNode pod) {
    ObjectNode spec = obj(pod, "spec");
    ArrayNode containers = spec == null ? null : Trees.arr(spec, "containers");
    if (containers == null || containers.isEmpty()) {
      return List.of(new Cause("FieldValueRequired", "Required value", "spec.containers"));
    }
    return List.of();
  }

  private static void pod(Request r, ObjectNode pod, boolean create) {
    ObjectNode spec = obj(pod, "spec");
    if (spec == null) {
      return;
    }
    defaultTolerations(spec);
    if (create) {
      serviceAccount(pod, spec);
      priority(r, spec);
    } else if (r.oldObject() != null) {
      keepPriority(spec, obj(r.oldObject(), "spec"));
    }
  }

  /** Adds the not-ready and unreachable NoExecute tolerations the pod lacks. */
  static void defaultTolerations(ObjectNode spec) {
    boolean notReady = false;
    boolean unreachable = false;
    ArrayNode tolerations = Trees.arr(spec, "tolerations");
    if (tolerations != null) {
      for (JsonNode t : tolerations) {
        String key = str(t, "key");
        String effect = str(t, "effect");
        if (!effect.isEmpty() && !effect.equals("NoExecute")) {
          continue;
        }
        notReady |= key.isEmpty() || key.equals(NOT_READY);
        unreachable |= key.isEmpty() || key.equals(UNREACHABLE);
      }
    }
    if (notReady && unreachable) {
      return;
    }
    if (tolerations == null) {
      tolerations = spec.putArray("tolerations");
    }
    if (!notReady) {
      toleration(tolerations, NOT_READY);
    }
    if (!unreachable) {
      toleration(tolerations, UNREACHABLE);
    }
  }

  private static void toleration(ArrayNode tolerations, String key) {
    ObjectNode t =
        tolerations
            .addObject()
            .put("key", key)
            .put("operator", "Exists")
            .put("effect", "NoExecute");
    Trees.putInteger(t, "tolerationSeconds", DEFAULT_TOLERATION_SECONDS);
  }

  /** The ServiceAccount plugin's default account name; mirror pods are left alone. */
  private static void serviceAccount(ObjectNode pod, ObjectNode spec) {
    ObjectNode annotations = obj(obj(pod, "metadata"), "annotations");
    boolean mirror = annotations != null && annotations.has(MIRROR_ANNOTATION);
    if (mirror || !Trees.unsetString(spec, "serviceAccountName")) {
      return;
    }
    spec.put("serviceAccountName", "default");
    PodSpecDefaults.serviceAccountAlias(spec);
  }

  private static void priority(Request r, ObjectNode spec) {
    String className = str(spec, "priorityClassName");
    long priority;
    if (className.isEmpty()) {
      priority = 0;
    } else {
      Long builtIn = builtInPriority(className);
      if (builtIn == null) {
        throw forbidden(r, "no PriorityClass with name " + className + " was found");
      }
      priority = builtIn;
    }
    JsonNode given = spec.get("priority");
    if (given != null && !given.isNull() && given.asLong() != priority) {
      throw forbidden(
          r,
          "the integer value of priority ("
              + given.asLong()
              + ") must not be provided in pod spec; priority admission controller computed "
              + priority
              + " from the given PriorityClass name");
    }
    Trees.putInteger(spec, "priority", priority);
    String policy = str(spec, "preemptionPolicy");
    if (!Trees.unset(spec, "preemptionPolicy") && !policy.equals(PREEMPT_LOWER)) {
      throw forbidden(
          r,
          "the string value of PreemptionPolicy ("
              + policy
              + ") must not be provided in pod spec; priority admission controller computed "
              + PREEMPT_LOWER
              + " from the given PriorityClass name");
    }
    spec.put("preemptionPolicy", PREEMPT_LOWER);
  }

  /** The classes every cluster has; no others are served here. */
  private static Long builtInPriority(String className) {
    return switch (className) {
      case "system-node-critical" -> 2000001000L;
      case "system-cluster-critical" -> 2000000000L;
      default -> null;
    };
  }

  private static void keepPriority(ObjectNode spec, ObjectNode oldSpec) {
    if (oldSpec == null) {
      return;
    }
    for (String f : List.of("priority", "preemptionPolicy")) {
      if (Trees.unset(spec, f) && !Trees.unset(oldSpec, f)) {
        spec.set(f, oldSpec.get(f));
      }
    }
  }

  private static ApiException forbidden(Request r, String why) {
    return ApiException.forbidden(r.type(), str(obj(r.object(), "metadata"), "name"), why);
  }

  /**
   * A Job's pods end: restartPolicy OnFailure or Never (Never alone with a pod failure policy).
   * Always, which defaulting gives an unset policy, is reported as a missing value, as upstream.
   */
  private static List<Cause> jobRestartPolicy(ObjectNode job) {
    ObjectNode spec = obj(obj(obj(job, "spec"), "template"), "spec");
    if (spec == null) {
      return List.of();
    }
    String field = "spec.template.spec.restartPolicy";
    String policy = str(spec, "restartPolicy");
    if (policy.isEmpty() || policy.equals("Always")) {
      return List.of(
          new Cause(
              "FieldValueRequired",
              "Required value: valid values: \"OnFailure\", \"Never\"",
              field));
    }
    if (!policy.equals("OnFailure") && !policy.equals("Never")) {
      return List.of(
          new Cause(
              "FieldValueNotSupported",
              "Unsupported value: \"" + policy + "\": supported values: \"OnFailure\", \"Never\"",
              field));
    }
    if (obj(obj(job, "spec"), "podFailurePolicy") != null && !policy.equals("Never")) {
      return List.of(
          MetadataAdmission.invalid(
              field, policy, "only \"Never\" is supported when podFailurePolicy is specified"));
    }
    return List.of();
  }
}
