package io.jdra.kubelet.sim;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Node object of a simulated node and its heartbeat (upstream kubelet_node_status.go and the
 * node lease controller): registers the Node with the well-known labels, capacity, addresses and
 * kubelet endpoint, reports it Ready, and renews its Lease in {@code kube-node-lease}.
 */
public final class NodeRegistration {
  /** Upstream's node lease duration; the lease is renewed every quarter of it. */
  public static final int LEASE_DURATION_SECONDS = 40;

  public static final String KUBELET_VERSION = "v1.36.0-jdra";

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final KubernetesClient client;
  private final String nodeName;
  private final Map<String, Quantity> capacity;
  private final String nodeIp;
  private final int port;

  public NodeRegistration(
      KubernetesClient client,
      String nodeName,
      Map<String, Quantity> capacity,
      String nodeIp,
      int port) {
    this.client = client;
    this.nodeName = nodeName;
    this.capacity = capacity;
    this.nodeIp = nodeIp;
    this.port = port;
  }

  /** Creates the Node, or takes over an existing one of that name, and sets its status. */
  public Node register(Instant now) {
    Node node =
        new NodeBuilder()
            .withNewMetadata()
            .withName(nodeName)
            .withLabels(
                Map.of(
                    "kubernetes.io/hostname", nodeName,
                    "kubernetes.io/os", "linux",
                    "kubernetes.io/arch", "amd64"))
            .endMetadata()
            .build();
    try {
      client.nodes().resource(node).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
      client
          .nodes()
          .withName(nodeName)
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              JSON.writeValueAsString(
                  Map.of("metadata", Map.of("labels", node.getMetadata().getLabels()))));
    }
    return updateStatus(now);
  }

  /** Writes the full status with a fresh heartbeat. */
  public Node updateStatus(Instant now) {
    String patch = JSON.writeValueAsString(Map.of("status", status(now)));
    return client
        .nodes()
        .withName(nodeName)
        .subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  NodeStatus status(Instant now) {
    String t = now.truncatedTo(ChronoUnit.SECONDS).toString();
    return new NodeStatusBuilder()
        .withCapacity(capacity)
        .withAllocatable(capacity)
        .withConditions(
            condition(
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
                t),
            condition(
                "DiskPressure",
                "False",
                "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure",
                t),
            condition(
                "PIDPressure",
                "False",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available",
                t),
            condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", t))
        .addNewAddress()
        .withType("InternalIP")
        .withAddress(nodeIp)
        .endAddress()
        .addNewAddress()
        .withType("Hostname")
        .withAddress(nodeName)
        .endAddress()
        .withNewDaemonEndpoints()
        .withNewKubeletEndpoint()
        .withPort(port)
        .endKubeletEndpoint()
        .endDaemonEndpoints()
        .withNewNodeInfo()
        .withArchitecture("amd64")
        .withOperatingSystem("linux")
        .withKubeletVersion(KUBELET_VERSION)
        .withContainerRuntimeVersion("jdra-sim://0.1.0")
        .withOsImage("jdra simulated node")
        .withKernelVersion("")
        .withMachineID("")
        .withSystemUUID("")
        .withBootID("")
        .withKubeProxyVersion("")
        .endNodeInfo()
        .build();
  }

  private static NodeCondition condition(
      String type, String status, String reason, String message, String t) {
    return new NodeConditionBuilder()
        .withType(type)
        .withStatus(status)
        .withReason(reason)
        .withMessage(message)
        .withLastHeartbeatTime(t)
        .withLastTransitionTime(t)
        .build();
  }

  /** Creates or renews the node's Lease, owned by the Node so it goes away with it. */
  public void renewLease(Node node, Instant now) {
    var leases = client.leases().inNamespace("kube-node-lease");
    Lease current = leases.withName(nodeName).get();
    ZonedDateTime renew = now.atZone(ZoneOffset.UTC);
    if (current == null) {
      leases
          .resource(
              new LeaseBuilder()
                  .withNewMetadata()
                  .withName(nodeName)
                  .withNamespace("kube-node-lease")
                  .addNewOwnerReference()
                  .withApiVersion("v1")
                  .withKind("Node")
                  .withName(nodeName)
                  .withUid(node.getMetadata().getUid())
                  .endOwnerReference()
                  .endMetadata()
                  .withNewSpec()
                  .withHolderIdentity(nodeName)
                  .withLeaseDurationSeconds(LEASE_DURATION_SECONDS)
                  .withRenewTime(renew)
                  .endSpec()
                  .build())
          .create();
      return;
    }
    current.getSpec().setRenewTime(renew);
    current.getSpec().setHolderIdentity(nodeName);
    leases.resource(current).update();
  }
}
