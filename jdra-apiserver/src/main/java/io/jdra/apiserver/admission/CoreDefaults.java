package io.jdra.apiserver.admission;

import static io.jdra.apiserver.admission.Trees.defaultBoolPointer;
import static io.jdra.apiserver.admission.Trees.defaultIntPointer;
import static io.jdra.apiserver.admission.Trees.defaultString;
import static io.jdra.apiserver.admission.Trees.ensure;
import static io.jdra.apiserver.admission.Trees.obj;
import static io.jdra.apiserver.admission.Trees.unset;

import io.jdra.apiserver.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The defaults kube-apiserver applies to every decoded body of the built-in kinds other than
 * resource.k8s.io (core/v1, apps/v1 and batch/v1 defaulting functions and {@code +default}
 * markers), on the JSON tree in place. Kinds without upstream defaults (ConfigMap, whose only
 * default is an empty map that is never serialised, Event, Lease, ServiceAccount) are unchanged.
 * Stateless.
 */
final class CoreDefaults {
  private CoreDefaults() {}

  /** Defaults {@code obj}, an object of type {@code t} in its storage version. */
  static void apply(ResourceType t, ObjectNode obj) {
    switch (t.group() + "/" + t.kind()) {
      case "/Pod" -> pod(obj);
      case "/Secret" -> secret(obj);
      case "/Namespace" -> namespace(obj);
      case "/Node" -> node(obj);
      case "apps/Deployment" -> deployment(obj);
      case "apps/ReplicaSet" -> replicaSet(obj);
      case "batch/Job" -> job(obj);
      default -> {}
    }
  }

  private static void pod(ObjectNode pod) {
    ObjectNode spec = obj(pod, "spec");
    if (spec != null) {
      PodSpecDefaults.apply(spec, true);
    }
  }

  /** Type Opaque; {@code stringData} merged into {@code data} (base64), as the v1 conversion. */
  private static void secret(ObjectNode secret) {
    defaultString(secret, "type", "Opaque");
    JsonNode stringData = secret.remove("stringData");
    if (stringData instanceof ObjectNode s && !s.isEmpty()) {
      ObjectNode data = ensure(secret, "data");
      if (data == null) {
        data = secret.putObject("data");
      }
      for (Map.Entry<String, JsonNode> e : s.properties()) {
        String v = e.getValue().isNull() ? "" : e.getValue().asString();
        data.put(
            e.getKey(), Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8)));
      }
    }
  }

  /** The {@code kubernetes.io/metadata.name} label (when named) and phase Active. */
  private static void namespace(ObjectNode ns) {
    ObjectNode meta = obj(ns, "metadata");
    String name = Trees.str(meta, "name");
    if (!name.isEmpty()) {
      ObjectNode labels = ensure(meta, "labels");
      if (labels != null) {
        labels.put("kubernetes.io/metadata.name", name);
      }
    }
    ObjectNode status = obj(ns, "status");
    if (status != null) {
      defaultString(status, "phase", "Active");
    }
  }

  /** Allocatable defaults to capacity. */
  private static void node(ObjectNode node) {
    ObjectNode status = obj(node, "status");
    if (status != null && unset(status, "allocatable") && obj(status, "capacity") != null) {
      status.set("allocatable", status.get("capacity").deepCopy());
    }
  }

  private static void deployment(ObjectNode d) {
    ObjectNode spec = ensure(d, "spec");
    if (spec == null) {
      return;
    }
    defaultIntPointer(spec, "replicas", 1);
    ObjectNode strategy = ensure(spec, "strategy");
    if (strategy != null) {
      defaultString(strategy, "type", "RollingUpdate");
      if ("RollingUpdate".equals(Trees.str(strategy, "type"))) {
        ObjectNode rolling = ensure(strategy, "rollingUpdate");
        if (rolling != null) {
          if (unset(rolling, "maxUnavailable")) {
            rolling.put("maxUnavailable", "25%");
          }
          if (unset(rolling, "maxSurge")) {
            rolling.put("maxSurge", "25%");
          }
        }
      }
    }
    defaultIntPointer(spec, "revisionHistoryLimit", 10);
    defaultIntPointer(spec, "progressDeadlineSeconds", 600);
    PodSpecDefaults.template(d);
  }

  private static void replicaSet(ObjectNode rs) {
    ObjectNode spec = ensure(rs, "spec");
    if (spec != null) {
      defaultIntPointer(spec, "replicas", 1);
    }
    PodSpecDefaults.template(rs);
  }

  private static void job(ObjectNode job) {
    ObjectNode spec = ensure(job, "spec");
    if (spec == null) {
      return;
    }
    if (unset(spec, "completions") && unset(spec, "parallelism")) {
      spec.put("completions", 1);
    }
    defaultIntPointer(spec, "parallelism", 1);
    if (unset(spec, "backoffLimit")) {
      // With a per-index limit the global one is effectively unbounded.
      spec.put("backoffLimit", unset(spec, "backoffLimitPerIndex") ? 6 : Integer.MAX_VALUE);
    }
    if (unset(spec, "completionMode")) {
      spec.put("completionMode", "NonIndexed");
    }
    defaultBoolPointer(spec, "suspend", false);
    ObjectNode failurePolicy = obj(spec, "podFailurePolicy");
    Trees.eachObject(
        failurePolicy,
        "rules",
        rule -> Trees.eachObject(rule, "onPodConditions", c -> defaultString(c, "status", "True")));
    if (unset(spec, "podReplacementPolicy")) {
      spec.put("podReplacementPolicy", failurePolicy != null ? "Failed" : "TerminatingOrFailed");
    }
    // The v1 conversion turns an unset manualSelector into false.
    defaultBoolPointer(spec, "manualSelector", false);
    PodSpecDefaults.template(job);
  }

  /**
   * A Job without labels takes its template's. Upstream applies this when it decodes a body and
   * again whenever it reads the stored Job, after the create strategy added the selector labels to
   * the template (which clients therefore see on the Job too), so callers run it after that step.
   */
  static void jobLabels(ObjectNode job) {
    ObjectNode templateLabels = obj(obj(obj(obj(job, "spec"), "template"), "metadata"), "labels");
    ObjectNode meta = obj(job, "metadata");
    if (templateLabels == null || meta == null) {
      return;
    }
    JsonNode labels = meta.get("labels");
    if (labels == null || labels.isNull() || labels.isEmpty()) {
      meta.set("labels", templateLabels.deepCopy());
    }
  }
}
