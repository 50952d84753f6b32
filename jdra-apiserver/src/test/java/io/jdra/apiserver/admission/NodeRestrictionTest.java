package io.jdra.apiserver.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdra.apiserver.admission.Admission.Operation;
import io.jdra.apiserver.auth.BootstrapPolicy;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.meta.ApiException;
import io.jdra.apiserver.meta.Json;
import io.jdra.apiserver.registry.ResourceRegistry;
import io.jdra.apiserver.registry.ResourceType;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

/**
 * NodeRestriction and the ResourceSlice policy, write by write: what a kubelet and a driver of
 * node-1 may change, and upstream's words when they may not.
 */
class NodeRestrictionTest {
  static final ResourceRegistry REGISTRY = ResourceRegistry.builtIn();
  static final ResourceType PODS = type("", "pods");
  static final ResourceType NODES = type("", "nodes");
  static final ResourceType LEASES = type("coordination.k8s.io", "leases");
  static final ResourceType SLICES = type("resource.k8s.io", "resourceslices");
  static final UserInfo NODE_1 = UserInfo.node("node-1");
  static final UserInfo DRIVER_1 = driver("node-1");
  static final Admission ADMISSION =
      Admission.chain(List.of(new NodeRestriction(), ResourceSlicePolicy.exampleDriver()));

  static ResourceType type(String group, String plural) {
    return REGISTRY.all().stream()
        .filter(t -> t.group().equals(group) && t.plural().equals(plural))
        .findFirst()
        .orElseThrow();
  }

  static UserInfo driver(String node) {
    return UserInfo.serviceAccount(
        BootstrapPolicy.EXAMPLE_DRIVER_NAMESPACE,
        BootstrapPolicy.EXAMPLE_DRIVER_SERVICE_ACCOUNT,
        node);
  }

  static ObjectNode obj(String json) {
    return Json.parseObject(json.replace('\'', '"').getBytes());
  }

  static ObjectNode pod(String name, String node) {
    return obj(
        "{'metadata':{'name':'"
            + name
            + "','namespace':'default'},'spec':{'nodeName':'"
            + node
            + "'}}");
  }

  static ObjectNode slice(String name, String node) {
    return obj(
        "{'metadata':{'name':'"
            + name
            + "'},'spec':{'nodeName':'"
            + node
            + "','driver':'gpu.example.com'}}");
  }

  static ObjectNode node(String name, String labels, String taints) {
    return obj(
        "{'metadata':{'name':'"
            + name
            + "','labels':{"
            + labels
            + "}},'spec':{'taints':["
            + taints
            + "]}}");
  }

  /** A write and what must come of it: null allowed, else the code and message. */
  record Case(
      String name,
      UserInfo user,
      Operation op,
      ResourceType type,
      String sub,
      ObjectNode object,
      ObjectNode old,
      Integer code,
      String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case ok(
      String name,
      UserInfo u,
      Operation op,
      ResourceType t,
      String sub,
      ObjectNode o,
      ObjectNode old) {
    return new Case(name, u, op, t, sub, o, old, null, null);
  }

  static Case refused(
      String name,
      UserInfo u,
      Operation op,
      ResourceType t,
      String sub,
      ObjectNode o,
      ObjectNode old,
      int code,
      String msg) {
    return new Case(name, u, op, t, sub, o, old, code, msg);
  }

  static Stream<Case> cases() {
    ObjectNode ownPod = pod("on-1", "node-1");
    ObjectNode otherPod = pod("on-2", "node-2");
    ObjectNode ownPodRunning = pod("on-1", "node-1");
    Json.child(ownPodRunning, "status").put("phase", "Running");
    ObjectNode relabelled = pod("on-1", "node-1");
    Json.child(Json.child(relabelled, "metadata"), "labels").put("a", "b");
    ObjectNode claimStatus =
        obj(
            "{'metadata':{'name':'on-1'},'spec':{'nodeName':'node-1'},'status':{'resourceClaimStatuses':[{'name':'gpu','resourceClaimName':'x'}]}}");
    ObjectNode kubeletLabels = node("node-1", "'kubernetes.io/hostname':'node-1'", "");
    return Stream.of(
        ok(
            "node updates the status of its pod",
            NODE_1,
            Operation.UPDATE,
            PODS,
            "status",
            ownPodRunning,
            ownPod),
        refused(
            "node updates the status of another node's pod",
            NODE_1,
            Operation.UPDATE,
            PODS,
            "status",
            otherPod,
            otherPod,
            403,
            "pods \"on-2\" is forbidden: node \"node-1\" can only update pod status for pods with spec.nodeName set to itself"),
        refused(
            "node relabels its pod through status",
            NODE_1,
            Operation.UPDATE,
            PODS,
            "status",
            relabelled,
            ownPod,
            403,
            "pods \"on-1\" is forbidden: node \"node-1\" cannot update labels through pod status"),
        refused(
            "node changes claim statuses",
            NODE_1,
            Operation.UPDATE,
            PODS,
            "status",
            claimStatus,
            ownPod,
            403,
            "node \"node-1\" cannot update resource claim statues"),
        ok("node deletes its pod", NODE_1, Operation.DELETE, PODS, "", null, ownPod),
        refused(
            "node deletes another node's pod",
            NODE_1,
            Operation.DELETE,
            PODS,
            "",
            null,
            otherPod,
            403,
            "pods \"on-2\" is forbidden: node \"node-1\" can only delete pods with spec.nodeName set to itself"),
        refused(
            "node evicts another node's pod",
            NODE_1,
            Operation.CREATE,
            PODS,
            "eviction",
            obj("{'metadata':{'name':'on-2'}}"),
            otherPod,
            403,
            "pods \"on-2\" is forbidden: node node-1 can only evict pods with spec.nodeName set to itself"),
        refused(
            "node creates a pod that is not a mirror pod",
            NODE_1,
            Operation.CREATE,
            PODS,
            "",
            ownPod,
            null,
            403,
            "pod does not have \"kubernetes.io/config.mirror\" annotation, node \"node-1\" can only create mirror pods"),
        ok("node registers itself", NODE_1, Operation.CREATE, NODES, "", kubeletLabels, null),
        refused(
            "node registers another node",
            NODE_1,
            Operation.CREATE,
            NODES,
            "",
            node("node-2", "", ""),
            null,
            403,
            "nodes \"node-2\" is forbidden: node \"node-1\" is not allowed to modify node \"node-2\""),
        refused(
            "node registers with a role label",
            NODE_1,
            Operation.CREATE,
            NODES,
            "",
            node("node-1", "'node-role.kubernetes.io/gpu':''", ""),
            null,
            403,
            "node \"node-1\" is not allowed to set the following labels: node-role.kubernetes.io/gpu"),
        ok(
            "node updates its status",
            NODE_1,
            Operation.UPDATE,
            NODES,
            "status",
            kubeletLabels,
            kubeletLabels),
        refused(
            "node removes its taint",
            NODE_1,
            Operation.UPDATE,
            NODES,
            "",
            kubeletLabels,
            node(
                "node-1", "'kubernetes.io/hostname':'node-1'", "{'key':'k','effect':'NoSchedule'}"),
            403,
            "node \"node-1\" is not allowed to modify taints"),
        ok(
            "node renews its lease",
            NODE_1,
            Operation.UPDATE,
            LEASES,
            "",
            obj("{'metadata':{'name':'node-1','namespace':'kube-node-lease'}}"),
            obj("{'metadata':{'name':'node-1','namespace':'kube-node-lease'}}")),
        refused(
            "node creates another node's lease",
            NODE_1,
            Operation.CREATE,
            LEASES,
            "",
            obj("{'metadata':{'name':'node-2','namespace':'kube-node-lease'}}"),
            null,
            403,
            "can only access node lease with the same name as the requesting node"),
        ok(
            "node creates a slice of its node",
            NODE_1,
            Operation.CREATE,
            SLICES,
            "",
            slice("s1", "node-1"),
            null),
        refused(
            "node creates a slice of another node",
            NODE_1,
            Operation.CREATE,
            SLICES,
            "",
            slice("s2", "node-2"),
            null,
            403,
            "resourceslices.resource.k8s.io \"s2\" is forbidden: can only create ResourceSlice with the same NodeName as the requesting node"),
        refused(
            "node deletes a slice of another node",
            NODE_1,
            Operation.DELETE,
            SLICES,
            "",
            null,
            slice("s2", "node-2"),
            403,
            "can only delete ResourceSlice with the same NodeName as the requesting node"),
        ok(
            "driver creates a slice of its node",
            DRIVER_1,
            Operation.CREATE,
            SLICES,
            "",
            slice("s1", "node-1"),
            null),
        ok(
            "driver updates a slice of its node",
            DRIVER_1,
            Operation.UPDATE,
            SLICES,
            "",
            slice("s1", "node-1"),
            slice("s1", "node-1")),
        refused(
            "driver creates a slice of another node",
            DRIVER_1,
            Operation.CREATE,
            SLICES,
            "",
            slice("s2", "node-2"),
            null,
            422,
            "resourceslices.resource.k8s.io \"s2\" is forbidden: ValidatingAdmissionPolicy 'resourceslices-policy-dra-example-driver' with binding 'resourceslices-policy-dra-example-driver' denied request: this user running on node 'node-1' may not modify resourceslices on node 'node-2'"),
        refused(
            "driver deletes a slice of another node",
            DRIVER_1,
            Operation.DELETE,
            SLICES,
            "",
            null,
            slice("s2", "node-2"),
            422,
            "may not modify resourceslices on node 'node-2'"),
        refused(
            "driver creates a cluster-wide slice",
            DRIVER_1,
            Operation.CREATE,
            SLICES,
            "",
            obj("{'metadata':{'name':'all'},'spec':{'allNodes':true}}"),
            null,
            422,
            "this user running on node 'node-1' may not modify cluster resourceslices"),
        refused(
            "driver token without a node",
            driver(null),
            Operation.CREATE,
            SLICES,
            "",
            slice("s1", "node-1"),
            null,
            422,
            "no node association found for user, this user must run in a pod on a node and ServiceAccountTokenPodNodeInfo must be enabled"),
        ok(
            "another service account is not the policy's",
            UserInfo.serviceAccount("x", "y", "node-1"),
            Operation.CREATE,
            SLICES,
            "",
            slice("s2", "node-2"),
            null),
        ok(
            "the admin writes any slice",
            UserInfo.admin(),
            Operation.CREATE,
            SLICES,
            "",
            slice("s2", "node-2"),
            null),
        ok("the server itself", null, Operation.DELETE, PODS, "", null, otherPod));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void admits(Case c) {
    Admission.Request r =
        new Admission.Request(
            c.op(), c.type(), c.sub(), c.object(), c.old(), ns -> Map.of(), c.user());
    if (c.code() == null) {
      assertThat(ADMISSION.admit(r)).isEmpty();
      return;
    }
    assertThatThrownBy(() -> ADMISSION.admit(r))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(c.code());
              assertThat(e.getMessage()).contains(c.message());
            });
  }
}
