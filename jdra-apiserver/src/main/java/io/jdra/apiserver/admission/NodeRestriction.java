package io.jdra.apiserver.admission;

import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Cause;
import io.jdra.apiserver.meta.Json;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Upstream's NodeRestriction admission plugin for the kinds jdra serves: a kubelet ({@code
 * system:node:NAME}) may change only its own Node (not its taints, nor labels outside the kubelet
 * set), its own Lease in {@code kube-node-lease}, the status of pods bound to it (not their labels
 * or claim statuses), delete or evict only pods bound to it, create only mirror pods, and create or
 * delete only ResourceSlices whose {@code spec.nodeName} is its own. Refusals are 403 Forbidden
 * with upstream's messages. Other users pass. Thread-safe, stateless.
 */
public final class NodeRestriction implements Admission {
  private static final String MIRROR_POD = "kubernetes.io/config.mirror";
  private static final String NODE_LEASE_NAMESPACE = "kube-node-lease";

  /** The labels a kubelet may set on its Node (upstream {@code kubeletapis.IsKubeletLabel}). */
  private static final Set<String> KUBELET_LABELS =
      Set.of(
          "kubernetes.io/hostname",
          "kubernetes.io/arch",
          "kubernetes.io/os",
          "beta.kubernetes.io/instance-type",
          "node.kubernetes.io/instance-type",
          "failure-domain.beta.kubernetes.io/region",
          "failure-domain.beta.kubernetes.io/zone",
          "topology.kubernetes.io/region",
          "topology.kubernetes.io/zone",
          "beta.kubernetes.io/arch",
          "beta.kubernetes.io/os",
          "node.kubernetes.io/windows-build");

  private static final List<String> KUBELET_LABEL_NAMESPACES =
      List.of("kubelet.kubernetes.io", "node.kubernetes.io");

  @Override
  public List<Cause> admit(Request r) {
    if (r.user() == null) {
      return List.of();
    }
    Optional<String> identity = r.user().nodeName();
    if (identity.isEmpty()) {
      return List.of();
    }
    String node = identity.get();
    if (node.isEmpty()) {
      throw forbidden(r, "could not determine node from user \"" + r.user().name() + "\"");
    }
    String gr = r.type().group() + "/" + r.type().plural();
    switch (gr) {
      case "/pods" -> pod(node, r);
      case "/nodes" -> nodeObject(node, r);
      case "coordination.k8s.io/leases" -> lease(node, r);
      case "resource.k8s.io/resourceslices" -> slice(node, r);
      default -> {}
    }
    return List.of();
  }

  private static void pod(String node, Request r) {
    switch (r.subresource()) {
      case "" -> podItself(node, r);
      case "status" -> podStatus(node, r);
      case "eviction" -> {
        if (!node.equals(nodeName(r.oldObject()))) {
          throw forbidden(
              r, "node " + node + " can only evict pods with spec.nodeName set to itself");
        }
      }
      case "binding" -> {} // not a node's verb: authorization refuses it already
      default ->
          throw forbidden(
              r,
              "unexpected pod subresource \""
                  + r.subresource()
                  + "\", only 'status' and 'eviction' are allowed");
    }
  }

  private static void podItself(String node, Request r) {
    switch (r.operation()) {
      case DELETE -> {
        if (!node.equals(nodeName(r.oldObject()))) {
          throw forbidden(
              r, "node \"" + node + "\" can only delete pods with spec.nodeName set to itself");
        }
      }
      case CREATE -> {
        if (!r.object().path("metadata").path("annotations").has(MIRROR_POD)) {
          throw forbidden(
              r,
              "pod does not have \""
                  + MIRROR_POD
                  + "\" annotation, node \""
                  + node
                  + "\" can only create mirror pods");
        }
        if (!node.equals(nodeName(r.object()))) {
          throw forbidden(
              r, "node \"" + node + "\" can only create pods with spec.nodeName set to itself");
        }
      }
      default ->
          throw forbidden(
              r,
              "unexpected operation \""
                  + r.operation()
                  + "\", node \""
                  + node
                  + "\" can only create and delete mirror pods");
    }
  }

  private static void podStatus(String node, Request r) {
    if (r.operation() != Operation.UPDATE) {
      throw forbidden(r, "unexpected operation \"" + r.operation() + "\"");
    }
    if (!node.equals(nodeName(r.oldObject()))) {
      throw forbidden(
          r,
          "node \""
              + node
              + "\" can only update pod status for pods with spec.nodeName set to itself");
    }
    if (!sameJson(r.oldObject().at("/metadata/labels"), r.object().at("/metadata/labels"))) {
      throw forbidden(r, "node \"" + node + "\" cannot update labels through pod status");
    }
    if (!claimStatusesEqual(
        r.oldObject().at("/status/resourceClaimStatuses"),
        r.object().at("/status/resourceClaimStatuses"))) {
      throw forbidden(r, "node \"" + node + "\" cannot update resource claim statues");
    }
  }

  /** Names and claim names in order, as upstream compares them. */
  private static boolean claimStatusesEqual(JsonNode a, JsonNode b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).path("name").asString("").equals(b.get(i).path("name").asString(""))) {
        return false;
      }
      JsonNode ca = a.get(i).get("resourceClaimName");
      JsonNode cb = b.get(i).get("resourceClaimName");
      if (!Objects.equals(text(ca), text(cb))) {
        return false;
      }
    }
    return true;
  }

  private static String text(JsonNode n) {
    return n == null || n.isNull() ? null : n.asString();
  }

  private static void nodeObject(String node, Request r) {
    ObjectNode obj = r.operation() == Operation.DELETE ? r.oldObject() : r.object();
    String requested = Json.text(obj, "metadata.name");
    if (!node.equals(requested)) {
      throw forbidden(
          r, "node \"" + node + "\" is not allowed to modify node \"" + requested + "\"");
    }
    if (r.operation() == Operation.CREATE) {
      Set<String> forbidden = forbiddenLabels(labels(r.object()), Map.of());
      if (!forbidden.isEmpty()) {
        throw forbidden(
            r,
            "node \""
                + node
                + "\" is not allowed to set the following labels: "
                + String.join(", ", forbidden));
      }
    }
    if (r.operation() == Operation.UPDATE) {
      if (!sameJson(r.object().at("/spec/taints"), r.oldObject().at("/spec/taints"))) {
        throw forbidden(r, "node \"" + node + "\" is not allowed to modify taints");
      }
      Set<String> forbidden = forbiddenLabels(labels(r.object()), labels(r.oldObject()));
      if (!forbidden.isEmpty()) {
        throw forbidden(r, "is not allowed to modify labels: " + String.join(", ", forbidden));
      }
    }
  }

  private static Map<String, String> labels(ObjectNode obj) {
    Map<String, String> m = new java.util.TreeMap<>();
    obj.path("metadata")
        .path("labels")
        .properties()
        .forEach(e -> m.put(e.getKey(), e.getValue().asString("")));
    return m;
  }

  /**
   * Labels added, removed or changed that a kubelet may not touch, sorted as upstream lists them.
   */
  private static Set<String> forbiddenLabels(Map<String, String> now, Map<String, String> before) {
    Set<String> modified = new TreeSet<>();
    now.forEach((k, v) -> {
      if (!v.equals(before.get(k))) {
        modified.add(k);
      }
    });
    before.forEach((k, v) -> {
      if (!v.equals(now.get(k))) {
        modified.add(k);
      }
    });
    Set<String> forbidden = new TreeSet<>();
    for (String label : modified) {
      String ns = label.contains("/") ? label.substring(0, label.indexOf('/')) : "";
      if (ns.equals("node-restriction.kubernetes.io")
          || ns.endsWith(".node-restriction.kubernetes.io")) {
        forbidden.add(label);
      }
      if (isKubernetesLabel(ns) && !isKubeletLabel(label, ns)) {
        forbidden.add(label);
      }
    }
    return forbidden;
  }

  private static boolean isKubernetesLabel(String ns) {
    return ns.equals("kubernetes.io")
        || ns.endsWith(".kubernetes.io")
        || ns.equals("k8s.io")
        || ns.endsWith(".k8s.io");
  }

  private static boolean isKubeletLabel(String label, String ns) {
    if (KUBELET_LABELS.contains(label)) {
      return true;
    }
    for (String allowed : KUBELET_LABEL_NAMESPACES) {
      if (ns.equals(allowed) || ns.endsWith("." + allowed)) {
        return true;
      }
    }
    return false;
  }

  private static void lease(String node, Request r) {
    String ns =
        Json.text(
            r.operation() == Operation.DELETE ? r.oldObject() : r.object(), "metadata.namespace");
    if (!NODE_LEASE_NAMESPACE.equals(ns)) {
      throw forbidden(
          r, "can only access leases in the \"" + NODE_LEASE_NAMESPACE + "\" system namespace");
    }
    ObjectNode obj = r.operation() == Operation.DELETE ? r.oldObject() : r.object();
    if (!node.equals(Json.text(obj, "metadata.name"))) {
      throw forbidden(r, "can only access node lease with the same name as the requesting node");
    }
  }

  private static void slice(String node, Request r) {
    switch (r.operation()) {
      case CREATE -> {
        if (!node.equals(nodeName(r.object()))) {
          throw forbidden(
              r, "can only create ResourceSlice with the same NodeName as the requesting node");
        }
      }
      case DELETE -> {
        if (!node.equals(nodeName(r.oldObject()))) {
          throw forbidden(
              r, "can only delete ResourceSlice with the same NodeName as the requesting node");
        }
      }
      default -> {}
    }
  }

  private static String nodeName(ObjectNode obj) {
    String n = obj == null ? null : Json.text(obj, "spec.nodeName");
    return n == null ? "" : n;
  }

  private static boolean sameJson(JsonNode a, JsonNode b) {
    boolean aEmpty = a.isMissingNode() || a.isNull() || a.isEmpty();
    boolean bEmpty = b.isMissingNode() || b.isNull() || b.isEmpty();
    return aEmpty && bEmpty || Json.sameValue(a, b);
  }

  /** Upstream's {@code admission.NewForbidden}: the resource and name, then why. */
  static ApiException forbidden(Request r, String why) {
    ObjectNode obj = r.object() != null && r.subresource().isEmpty() ? r.object() : r.oldObject();
    String name = obj == null ? null : Json.text(obj, "metadata.name");
    return ApiException.forbidden(r.type(), name, why);
  }
}
