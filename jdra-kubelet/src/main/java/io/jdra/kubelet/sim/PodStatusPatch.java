package io.jdra.kubelet.sim;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The strategic merge patch the kubelet sends for a pod's status (upstream's
 * preparePatchBytesForPodStatus in pkg/util/pod, which runs strategicpatch.CreateTwoWayMergePatch
 * on the pod with the old and with the new status): a field that changed is set, a field that is
 * gone is null, and the lists that PodStatus merges by key (conditions by {@code type}, podIPs and
 * hostIPs by {@code ip}, resourceClaimStatuses by {@code name}) are patched per element with a
 * {@code $setElementOrder/<field>} list giving the new order; every other list (containerStatuses
 * and the like) is replaced whole, as their schema says. The patch carries {@code metadata.uid} so
 * that it cannot apply to a new pod of the same name.
 */
final class PodStatusPatch {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** PodStatus lists with patchStrategy merge, by their patchMergeKey. */
  private static final Map<String, String> MERGE_KEYS =
      Map.of(
          "conditions", "type",
          "podIPs", "ip",
          "hostIPs", "ip",
          "resourceClaimStatuses", "name");

  /**
   * Conditions the kubelet owns (upstream's PodConditionByKubelet in pkg/kubelet/types, with
   * PodReadyToStartContainers, GA).
   */
  static final Set<String> KUBELET_CONDITIONS =
      Set.of(
          "PodScheduled",
          "Ready",
          "Initialized",
          "ContainersReady",
          "PodResizeInProgress",
          "PodResizePending",
          "PodReadyToStartContainers");

  private PodStatusPatch() {}

  /**
   * The status to store (upstream's mergePodStatus in pkg/kubelet/status): the server's conditions
   * that the kubelet does not own, in their order, then the kubelet's own from {@code newStatus};
   * every other field of {@code newStatus} replaces the server's. Fields the simulated node does
   * not produce (qosClass, resourceClaimStatuses, nominatedNodeName) stay as the server has them,
   * as upstream's kubelet carries them over into the status it generates.
   */
  static ObjectNode mergePodStatus(ObjectNode oldStatus, ObjectNode newStatus) {
    ObjectNode merged = oldStatus.deepCopy();
    for (Map.Entry<String, JsonNode> e : newStatus.properties()) {
      if (!e.getKey().equals("conditions")) {
        merged.set(e.getKey(), e.getValue());
      }
    }
    ArrayNode conditions = NODES.arrayNode();
    for (JsonNode c : oldStatus.path("conditions")) {
      if (!KUBELET_CONDITIONS.contains(c.path("type").asString())) {
        conditions.add(c);
      }
    }
    for (JsonNode c : newStatus.path("conditions")) {
      if (KUBELET_CONDITIONS.contains(c.path("type").asString())) {
        conditions.add(c);
      }
    }
    if (!conditions.isEmpty() || merged.has("conditions")) {
      merged.set("conditions", conditions);
    }
    return merged;
  }

  /**
   * The patch from {@code oldStatus} to {@code newStatus} for pod {@code uid}, or null when the two
   * are equal (upstream's "unchanged": then nothing is sent).
   */
  static ObjectNode create(String uid, ObjectNode oldStatus, ObjectNode newStatus) {
    ObjectNode diff = diffMaps(oldStatus, newStatus, MERGE_KEYS, null);
    if (diff.isEmpty()) {
      return null;
    }
    ObjectNode patch = NODES.objectNode();
    patch.putObject("metadata").put("uid", uid);
    patch.set("status", diff);
    return patch;
  }

  /**
   * Fields of {@code modified} that differ from {@code original}; removed ones are null. {@code
   * mergeKeys} are the merge lists of this level (PodStatus's at the top, none below); {@code
   * elementKey} is set when the two are elements of a merge list.
   */
  private static ObjectNode diffMaps(
      JsonNode original, JsonNode modified, Map<String, String> mergeKeys, String elementKey) {
    ObjectNode patch = NODES.objectNode();
    for (Map.Entry<String, JsonNode> e : modified.properties()) {
      String field = e.getKey();
      JsonNode now = e.getValue();
      JsonNode before = original.get(field);
      if (before == null || before.getNodeType() != now.getNodeType()) {
        patch.set(field, now);
      } else if (now.isObject()) {
        ObjectNode sub = diffMaps(before, now, Map.of(), null);
        if (!sub.isEmpty()) {
          patch.set(field, sub);
        }
      } else if (now.isArray() && mergeKeys.containsKey(field)) {
        diffMergeList(patch, field, (ArrayNode) before, (ArrayNode) now, mergeKeys.get(field));
      } else if (!now.equals(before)) {
        patch.set(field, now);
      }
    }
    for (String field : original.propertyNames()) {
      if (!modified.has(field)) {
        patch.putNull(field);
      }
    }
    if (!patch.isEmpty() && elementKey != null) {
      // An element's patch names its element.
      patch.set(elementKey, modified.get(elementKey));
    }
    return patch;
  }

  /**
   * Elements added or changed (each with its merge key), elements removed ({@code $patch: delete}),
   * and the new order, when anything changed.
   */
  private static void diffMergeList(
      ObjectNode patch, String field, ArrayNode original, ArrayNode modified, String key) {
    Map<String, JsonNode> before = byKey(original, key);
    Map<String, JsonNode> after = byKey(modified, key);
    if (before == null || after == null) {
      // An element without its merge key: the list cannot be merged, so it is replaced.
      if (!original.equals(modified)) {
        patch.set(field, modified);
      }
      return;
    }
    ArrayNode changes = NODES.arrayNode();
    for (Map.Entry<String, JsonNode> e : after.entrySet()) {
      JsonNode old = before.get(e.getKey());
      if (old == null) {
        changes.add(e.getValue());
      } else if (!old.equals(e.getValue())) {
        changes.add(diffMaps(old, e.getValue(), Map.of(), key));
      }
    }
    for (String k : before.keySet()) {
      if (!after.containsKey(k)) {
        changes.addObject().put("$patch", "delete").put(key, k);
      }
    }
    if (changes.isEmpty()) {
      // Upstream sends the order only with a change: a list merely reordered is no patch.
      return;
    }
    ArrayNode order = patch.putArray("$setElementOrder/" + field);
    after.keySet().forEach(k -> order.addObject().put(key, k));
    patch.set(field, changes);
  }

  /** Elements by their merge key in list order; null if one has none (or not a string). */
  private static Map<String, JsonNode> byKey(ArrayNode list, String key) {
    Map<String, JsonNode> out = new LinkedHashMap<>();
    for (JsonNode el : list) {
      JsonNode k = el.get(key);
      if (!el.isObject() || k == null || !k.isString()) {
        return null;
      }
      out.put(k.stringValue(), el);
    }
    return out.size() == list.size() ? out : null;
  }
}
