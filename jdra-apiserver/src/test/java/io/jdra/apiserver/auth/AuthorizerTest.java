package io.jdra.apiserver.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The authorizer table: {@code Node,RBAC} over the bootstrap policy, request by request, with the
 * reasons upstream gives. The node graph is a fixed one: pod {@code default/on-1} (using claim
 * {@code claim-1}) and slice {@code slice-1} on node-1, pod {@code default/on-2} and slice {@code
 * slice-2} on node-2.
 */
class AuthorizerTest {
  static final NodeGraph GRAPH =
      new NodeGraph() {
        final Set<String> pods = Set.of("node-1/default/on-1", "node-2/default/on-2");
        final Set<String> claims = Set.of("node-1/default/claim-1");
        final Set<String> slices = Set.of("node-1/slice-1", "node-2/slice-2");

        @Override
        public boolean podOnNode(String node, String ns, String pod) {
          return pods.contains(node + "/" + ns + "/" + pod);
        }

        @Override
        public boolean claimUsedOnNode(String node, String ns, String claim) {
          return claims.contains(node + "/" + ns + "/" + claim);
        }

        @Override
        public boolean referencedOnNode(String node, String ns, boolean secret, String name) {
          return node.equals("node-1")
              && ns.equals("default")
              && name.equals(secret ? "s1" : "cm1");
        }

        @Override
        public boolean sliceOfNode(String node, String slice) {
          return slices.contains(node + "/" + slice);
        }
      };

  static final Authorizer AUTHORIZER =
      Authorizer.union(
          List.of(new NodeAuthorizer(GRAPH, BootstrapPolicy.nodeRules()), BootstrapPolicy.rbac()));

  static final UserInfo NODE_1 = UserInfo.node("node-1");
  static final UserInfo DRIVER_1 =
      UserInfo.serviceAccount(
          BootstrapPolicy.EXAMPLE_DRIVER_NAMESPACE,
          BootstrapPolicy.EXAMPLE_DRIVER_SERVICE_ACCOUNT,
          "node-1");
  static final UserInfo EXAMPLE_CONTROLLER =
      UserInfo.serviceAccount(
          BootstrapPolicy.EXAMPLE_DRIVER_NAMESPACE,
          BootstrapPolicy.EXAMPLE_DRIVER_SERVICE_ACCOUNT,
          null);
  static final UserInfo SCHEDULER = UserInfo.user(BootstrapPolicy.SCHEDULER);
  static final UserInfo KCM = UserInfo.user(BootstrapPolicy.CONTROLLER_MANAGER);

  record Case(String name, Attributes request, boolean allowed, String reason) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Attributes req(UserInfo u, String verb, String ns, String group, String resource) {
    return Attributes.resource(u, verb, ns, group, resource, "", "");
  }

  static Attributes req(
      UserInfo u, String verb, String ns, String group, String resource, String sub, String name) {
    return Attributes.resource(u, verb, ns, group, resource, sub, name);
  }

  static Case allow(String name, Attributes a) {
    return new Case(name, a, true, "");
  }

  static Case deny(String name, Attributes a, String reason) {
    return new Case(name, a, false, reason);
  }

  static Stream<Case> cases() {
    String res = "resource.k8s.io";
    Map<String, String> onNode1 = Map.of("spec.nodeName", "node-1");
    Map<String, String> onNode2 = Map.of("spec.nodeName", "node-2");
    return Stream.of(
        allow("admin does anything", req(UserInfo.admin(), "delete", "", res, "resourceslices")),
        allow("node gets its own Node", req(NODE_1, "get", "", "", "nodes", "", "node-1")),
        deny(
            "node gets another Node",
            req(NODE_1, "get", "", "", "nodes", "", "node-2"),
            "node 'node-1' cannot read 'node-2', only its own Node object"),
        deny(
            "node lists all Nodes",
            req(NODE_1, "list", "", "", "nodes"),
            "node 'node-1' cannot read all nodes, only its own Node object"),
        allow("node patches a Node status", req(NODE_1, "patch", "", "", "nodes", "status", "x")),
        allow("node creates a Node", req(NODE_1, "create", "", "", "nodes")),
        deny("node deletes a Node", req(NODE_1, "delete", "", "", "nodes", "", "node-1"), ""),
        allow(
            "node watches its pods",
            req(NODE_1, "watch", "", "", "pods").withFieldSelector(onNode1)),
        deny(
            "node watches another node's pods",
            req(NODE_1, "watch", "", "", "pods").withFieldSelector(onNode2),
            "can only list/watch pods with spec.nodeName field selector"),
        allow("node gets its pod", req(NODE_1, "get", "default", "", "pods", "", "on-1")),
        deny(
            "node gets another node's pod",
            req(NODE_1, "get", "default", "", "pods", "", "on-2"),
            "no relationship found between node 'node-1' and this object"),
        allow(
            "node patches pod status (NodeRestriction decides whose)",
            req(NODE_1, "patch", "default", "", "pods", "status", "on-2")),
        deny("node updates a pod", req(NODE_1, "update", "default", "", "pods", "", "on-1"), ""),
        allow(
            "node gets a claim of its pod",
            req(NODE_1, "get", "default", res, "resourceclaims", "", "claim-1")),
        deny(
            "node gets another claim",
            req(NODE_1, "get", "default", res, "resourceclaims", "", "claim-2"),
            "no relationship found between node 'node-1' and this object"),
        deny(
            "node lists claims",
            req(NODE_1, "list", "default", res, "resourceclaims"),
            "can only get individual resources of this type"),
        allow(
            "node creates a slice (NodeRestriction checks it)",
            req(NODE_1, "create", "", res, "resourceslices")),
        allow(
            "node updates its slice",
            req(NODE_1, "update", "", res, "resourceslices", "", "slice-1")),
        deny(
            "node updates another node's slice",
            req(NODE_1, "update", "", res, "resourceslices", "", "slice-2"),
            "no relationship found between node 'node-1' and this object"),
        allow(
            "node wipes its slices",
            req(NODE_1, "deletecollection", "", res, "resourceslices").withFieldSelector(onNode1)),
        deny(
            "node wipes all slices",
            req(NODE_1, "deletecollection", "", res, "resourceslices"),
            "can only list/watch/deletecollection resourceslices with nodeName field selector"),
        allow(
            "node updates its lease",
            req(
                NODE_1,
                "update",
                "kube-node-lease",
                "coordination.k8s.io",
                "leases",
                "",
                "node-1")),
        deny(
            "node updates another lease",
            req(NODE_1, "update", "kube-node-lease", "coordination.k8s.io", "leases", "", "node-2"),
            "can only access node lease with the same name as the requesting node"),
        allow(
            "node reads a secret its pod uses",
            req(NODE_1, "get", "default", "", "secrets", "", "s1")),
        deny(
            "node reads another secret",
            req(NODE_1, "get", "default", "", "secrets", "", "s"),
            "no relationship found between node 'node-1' and this object"),
        allow(
            "node watches one configmap its pod uses",
            req(NODE_1, "watch", "default", "", "configmaps", "", "cm1")),
        deny(
            "node lists configmaps",
            req(NODE_1, "list", "default", "", "configmaps"),
            "No Object name found"),
        deny(
            "node updates a configmap",
            req(NODE_1, "update", "default", "", "configmaps", "", "cm1"),
            "can only read resources of this type"),
        allow("node writes events", req(NODE_1, "create", "default", "events.k8s.io", "events")),
        deny(
            "unidentifiable node",
            req(
                UserInfo.user("system:node:", UserInfo.NODES_GROUP),
                "get",
                "",
                "",
                "nodes",
                "",
                "x"),
            "unknown node for user \"system:node:\""),
        allow("driver lists slices", req(DRIVER_1, "list", "", res, "resourceslices")),
        allow(
            "driver creates a slice (the policy checks it)",
            req(DRIVER_1, "create", "", res, "resourceslices")),
        allow(
            "driver gets a claim", req(DRIVER_1, "get", "default", res, "resourceclaims", "", "c")),
        allow(
            "driver updates claim status",
            req(DRIVER_1, "update", "default", res, "resourceclaims", "status", "c")),
        deny("driver lists pods", req(DRIVER_1, "list", "default", "", "pods"), ""),
        allow(
            "example controller watches claims",
            req(EXAMPLE_CONTROLLER, "watch", "", res, "resourceclaims")),
        allow(
            "example controller sets device conditions",
            req(EXAMPLE_CONTROLLER, "update", "default", res, "resourceclaims", "status", "c")),
        deny(
            "example controller updates a claim's spec",
            req(EXAMPLE_CONTROLLER, "update", "default", res, "resourceclaims", "", "c"),
            ""),
        deny(
            "driver deletes slices by collection",
            req(DRIVER_1, "deletecollection", "", res, "resourceslices"),
            ""),
        allow("scheduler binds", req(SCHEDULER, "create", "default", "", "pods", "binding", "p")),
        allow(
            "scheduler writes claim status",
            req(SCHEDULER, "update", "default", res, "resourceclaims", "status", "c")),
        allow(
            "scheduler adds a claim finalizer",
            req(SCHEDULER, "update", "default", res, "resourceclaims", "", "c")),
        deny("scheduler creates slices", req(SCHEDULER, "create", "", res, "resourceslices"), ""),
        allow(
            "scheduler renews its lease",
            req(
                SCHEDULER,
                "update",
                "kube-system",
                "coordination.k8s.io",
                "leases",
                "",
                "kube-scheduler")),
        deny(
            "scheduler renews another lease",
            req(
                SCHEDULER,
                "update",
                "kube-system",
                "coordination.k8s.io",
                "leases",
                "",
                "kube-controller-manager"),
            ""),
        allow(
            "controller manager creates claims",
            req(KCM, "create", "default", res, "resourceclaims")),
        allow(
            "controller manager deletes pods", req(KCM, "delete", "default", "", "pods", "", "p")),
        allow(
            "controller manager watches everything", req(KCM, "watch", "", res, "resourceslices")),
        deny(
            "controller manager creates slices", req(KCM, "create", "", res, "resourceslices"), ""),
        allow(
            "anyone authenticated reads discovery",
            new Attributes(
                UserInfo.user("alice"),
                "get",
                false,
                "/apis/resource.k8s.io",
                "",
                "",
                "",
                "",
                "",
                "",
                Map.of())),
        deny(
            "a user without roles",
            req(UserInfo.user("alice"), "list", "default", "", "pods"),
            ""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decides(Case c) {
    Decision d = AUTHORIZER.authorize(c.request());
    assertThat(d.allowed()).as("allowed").isEqualTo(c.allowed());
    assertThat(d.reason()).isEqualTo(c.reason());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void refusalsAreWordedAsUpstream(Case c) {
    Attributes a = c.request();
    String msg = a.forbiddenMessage();
    assertThat(msg).startsWith("User \"" + a.user().name() + "\" cannot " + a.verb() + " ");
    if (a.resourceRequest()) {
      assertThat(msg)
          .endsWith(
              a.namespace().isEmpty()
                  ? "at the cluster scope"
                  : "in the namespace \"" + a.namespace() + "\"");
    }
  }
}
