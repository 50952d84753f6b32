package io.jdra.apiserver.auth;

import java.util.List;
import java.util.Optional;

/**
 * Upstream's node authorizer (with AuthorizeNodeWithSelectors, on in 1.36): a kubelet, identified
 * as {@code system:node:NAME} in {@code system:nodes}, may read only its own Node, the pods bound
 * to it (lists and watches only with a {@code spec.nodeName} selector), the ResourceClaims those
 * pods use, its own Lease and ResourceSlices; everything else is judged by the static node rules.
 * Which object a write creates or changes is then checked by NodeRestriction admission. Not a node:
 * no opinion. Thread-safe.
 *
 * <p>Secrets and ConfigMaps are readable when a pod bound to the node references them, as upstream;
 * PersistentVolume(Claim)s and VolumeAttachments are refused to nodes (jdra serves no volumes).
 */
public final class NodeAuthorizer implements Authorizer {
  private static final String NODE_LEASE_NAMESPACE = "kube-node-lease";

  private final NodeGraph graph;
  private final List<PolicyRule> nodeRules;

  public NodeAuthorizer(NodeGraph graph, List<PolicyRule> nodeRules) {
    this.graph = graph;
    this.nodeRules = List.copyOf(nodeRules);
  }

  @Override
  public Decision authorize(Attributes a) {
    Optional<String> identity = a.user().nodeName();
    if (identity.isEmpty()) {
      return Decision.NO_OPINION;
    }
    String node = identity.get();
    if (node.isEmpty()) {
      return Decision.noOpinion("unknown node for user \"" + a.user().name() + "\"");
    }
    if (a.resourceRequest()) {
      Decision d = byResource(node, a);
      if (d != null) {
        return d;
      }
    }
    for (PolicyRule r : nodeRules) {
      if (r.allows(a)) {
        return Decision.ALLOW;
      }
    }
    return Decision.NO_OPINION;
  }

  /** The decision for a resource the authorizer subdivides, or null for the static rules. */
  private Decision byResource(String node, Attributes a) {
    String gr = a.apiGroup() + "/" + a.resource();
    return switch (gr) {
      case "/secrets" -> readReferenced(node, a, true);
      case "/configmaps" -> readReferenced(node, a, false);
      case "/persistentvolumeclaims", "/persistentvolumes" -> noRelationship(node);
      case "storage.k8s.io/volumeattachments" -> noRelationship(node);
      case "resource.k8s.io/resourceclaims" -> claim(node, a);
      case "coordination.k8s.io/leases" -> lease(node, a);
      case "resource.k8s.io/resourceslices" -> slice(node, a);
      case "/nodes" -> nodeObject(node, a);
      case "/pods" -> pod(node, a);
      default -> null;
    };
  }

  private static Decision noRelationship(String node) {
    return Decision.noOpinion("no relationship found between node '" + node + "' and this object");
  }

  /** Upstream's authorizeReadNamespacedObject: get, list or watch of one referenced object. */
  private Decision readReferenced(String node, Attributes a, boolean secret) {
    switch (a.verb()) {
      case "get", "list", "watch" -> {}
      default -> {
        return Decision.noOpinion("can only read resources of this type");
      }
    }
    if (!a.subresource().isEmpty()) {
      return Decision.noOpinion("cannot read subresource");
    }
    if (a.namespace().isEmpty()) {
      return Decision.noOpinion("can only read namespaced object of this type");
    }
    if (a.name().isEmpty()) {
      return Decision.noOpinion("No Object name found");
    }
    return graph.referencedOnNode(node, a.namespace(), secret, a.name())
        ? Decision.ALLOW
        : noRelationship(node);
  }

  private Decision claim(String node, Attributes a) {
    if (!a.verb().equals("get")) {
      return Decision.noOpinion("can only get individual resources of this type");
    }
    if (!a.subresource().isEmpty()) {
      return Decision.noOpinion("cannot get subresource");
    }
    if (a.name().isEmpty()) {
      return Decision.noOpinion("No Object name found");
    }
    return graph.claimUsedOnNode(node, a.namespace(), a.name())
        ? Decision.ALLOW
        : noRelationship(node);
  }

  private static Decision lease(String node, Attributes a) {
    switch (a.verb()) {
      case "get", "create", "update", "patch", "delete" -> {}
      default -> {
        return Decision.noOpinion("can only get, create, update, patch, or delete a node lease");
      }
    }
    if (!a.namespace().equals(NODE_LEASE_NAMESPACE)) {
      return Decision.noOpinion(
          "can only access leases in the \"" + NODE_LEASE_NAMESPACE + "\" system namespace");
    }
    // create: the name is in the body, which NodeRestriction checks
    if (!a.verb().equals("create") && !a.name().equals(node)) {
      return Decision.noOpinion(
          "can only access node lease with the same name as the requesting node");
    }
    return Decision.ALLOW;
  }

  private Decision slice(String node, Attributes a) {
    if (!a.subresource().isEmpty()) {
      return Decision.noOpinion("cannot authorize ResourceSlice subresources");
    }
    switch (a.verb()) {
      case "create" -> {
        // the new slice's spec.nodeName is NodeRestriction's to check
        return Decision.ALLOW;
      }
      case "get", "update", "patch", "delete" -> {
        if (a.name().isEmpty()) {
          return Decision.noOpinion("No Object name found");
        }
        return graph.sliceOfNode(node, a.name()) ? Decision.ALLOW : noRelationship(node);
      }
      case "watch", "list", "deletecollection" -> {
        if (node.equals(a.fieldSelector().get("spec.nodeName"))) {
          return Decision.ALLOW;
        }
        return Decision.noOpinion(
            "can only list/watch/deletecollection resourceslices with nodeName field selector");
      }
      default -> {
        return Decision.noOpinion(
            "only the following verbs are allowed for a ResourceSlice: get, watch, list, create,"
                + " update, patch, delete, deletecollection");
      }
    }
  }

  private static Decision nodeObject(String node, Attributes a) {
    switch (a.subresource()) {
      case "" -> {
        switch (a.verb()) {
          case "create", "update", "patch" -> {
            return Decision.ALLOW; // NodeRestriction: only its own
          }
          case "get", "list", "watch" -> {
            if (a.name().equals(node)) {
              return Decision.ALLOW;
            }
            if (a.name().isEmpty()) {
              return Decision.noOpinion(
                  "node '" + node + "' cannot read all nodes, only its own Node object");
            }
            return Decision.noOpinion(
                "node '" + node + "' cannot read '" + a.name() + "', only its own Node object");
          }
          default -> {}
        }
      }
      case "status" -> {
        if (a.verb().equals("update") || a.verb().equals("patch")) {
          return Decision.ALLOW; // NodeRestriction: only its own
        }
      }
      default -> {}
    }
    return Decision.NO_OPINION;
  }

  private Decision pod(String node, Attributes a) {
    switch (a.subresource()) {
      case "" -> {
        switch (a.verb()) {
          case "get" -> {
            if (a.name().isEmpty()) {
              return Decision.noOpinion("No Object name found");
            }
            return graph.podOnNode(node, a.namespace(), a.name())
                ? Decision.ALLOW
                : noRelationship(node);
          }
          case "list", "watch" -> {
            if (node.equals(a.fieldSelector().get("spec.nodeName"))) {
              return Decision.ALLOW;
            }
            if (!a.name().isEmpty()) {
              return graph.podOnNode(node, a.namespace(), a.name())
                  ? Decision.ALLOW
                  : noRelationship(node);
            }
            return Decision.noOpinion("can only list/watch pods with spec.nodeName field selector");
          }
          case "create", "delete" -> {
            return Decision.ALLOW; // NodeRestriction: mirror pods, pods bound to it
          }
          default -> {}
        }
      }
      case "status" -> {
        if (a.verb().equals("update") || a.verb().equals("patch")) {
          return Decision.ALLOW; // NodeRestriction: pods bound to it
        }
      }
      case "eviction" -> {
        if (a.verb().equals("create")) {
          return Decision.ALLOW; // NodeRestriction: pods bound to it
        }
      }
      default -> {}
    }
    return Decision.NO_OPINION;
  }
}
