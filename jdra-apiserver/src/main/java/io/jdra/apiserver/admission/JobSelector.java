package io.jdra.apiserver.admission;

import static io.jdra.apiserver.admission.Trees.ensure;
import static io.jdra.apiserver.admission.Trees.obj;
import static io.jdra.apiserver.admission.Trees.str;

import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The selector the Job create strategy generates unless {@code manualSelector} is true: the job's
 * name and uid as template labels (current and legacy keys; labels the user already set are kept,
 * for validation to judge) and a selector on the uid. Stateless.
 */
final class JobSelector {
  static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
  static final String JOB_NAME = "batch.kubernetes.io/job-name";
  static final String LEGACY_CONTROLLER_UID = "controller-uid";
  static final String LEGACY_JOB_NAME = "job-name";

  private JobSelector() {}

  static void generateIfNeeded(ObjectNode job) {
    ObjectNode spec = obj(job, "spec");
    if (spec == null) {
      return;
    }
    JsonNode manual = spec.get("manualSelector");
    if (manual != null && manual.asBoolean(false)) {
      return;
    }
    ObjectNode meta = obj(job, "metadata");
    String name = str(meta, "name");
    String uid = str(meta, "uid");
    ObjectNode template = ensure(spec, "template");
    ObjectNode templateMeta = template == null ? null : ensure(template, "metadata");
    ObjectNode labels = templateMeta == null ? null : ensure(templateMeta, "labels");
    if (labels == null) {
      return;
    }
    for (String key : List.of(LEGACY_JOB_NAME, JOB_NAME)) {
      if (!labels.has(key)) {
        labels.put(key, name);
      }
    }
    for (String key : List.of(LEGACY_CONTROLLER_UID, CONTROLLER_UID)) {
      if (!labels.has(key)) {
        labels.put(key, uid);
      }
    }
    sortKeys(labels);
    ObjectNode selector = ensure(spec, "selector");
    ObjectNode matchLabels = selector == null ? null : ensure(selector, "matchLabels");
    if (matchLabels != null && !matchLabels.has(CONTROLLER_UID)) {
      matchLabels.put(CONTROLLER_UID, uid);
      sortKeys(matchLabels);
    }
  }

  /** Orders a map's keys as Go serialises maps, so the stored JSON reads as upstream's. */
  private static void sortKeys(ObjectNode map) {
    java.util.TreeMap<String, JsonNode> sorted = new java.util.TreeMap<>();
    for (java.util.Map.Entry<String, JsonNode> e : map.properties()) {
      sorted.put(e.getKey(), e.getValue());
    }
    map.removeAll();
    map.setAll(sorted);
  }
}
