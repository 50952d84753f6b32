package io.jdra.kubeletplugin.internal;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.jdra.kubeletplugin.Device;
import io.jdra.kubeletplugin.DraPlugin;
import io.jdra.kubeletplugin.NamespacedObject;
import io.jdra.kubeletplugin.PrepareResult;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.proto.dra.v1.NodePrepareResourceResponse;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.proto.dra.v1.NodePrepareResourcesResponse;
import io.jdra.proto.dra.v1.NodeUnprepareResourceResponse;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesResponse;
import io.jdra.runtime.Ctx;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelet-facing logic behind both DRAPlugin versions (upstream nodePluginImplementation): read
 * and check the claims, serialize, call the plugin, translate results.
 *
 * <p>Unlike upstream, which fails the whole call when one claim cannot be read, a claim that is
 * missing, replaced, not allocated or has no device of this driver gets a per-claim error and the
 * others are still prepared: one bad claim must not block the pod's other claims' retries.
 */
public final class NodeService {
  private final String driverName;
  private final ClaimGetter claims;
  private final DraPlugin plugin;
  private final Serializer serializer;

  public NodeService(
      String driverName, KubernetesClient client, DraPlugin plugin, Serializer serializer) {
    this.driverName = driverName;
    this.claims = client == null ? null : new ClaimGetter(client);
    this.plugin = plugin;
    this.serializer = serializer;
  }

  public NodePrepareResourcesResponse prepare(Ctx ctx, NodePrepareResourcesRequest req)
      throws Exception {
    Map<String, String> errors = new LinkedHashMap<>();
    List<ResourceClaim> claims = new ArrayList<>();
    for (Claim c : req.getClaimsList()) {
      try {
        claims.add(fetch(c));
      } catch (ClaimException e) {
        errors.put(c.getUid(), e.getMessage());
      }
    }
    Map<String, PrepareResult> results = Map.of();
    if (!claims.isEmpty()) {
      try (AutoCloseable unlock = serializer.lock()) {
        results = plugin.prepareResourceClaims(ctx, claims);
      }
    }
    NodePrepareResourcesResponse.Builder resp = NodePrepareResourcesResponse.newBuilder();
    for (ResourceClaim claim : claims) {
      String uid = claim.getMetadata().getUid();
      PrepareResult r = results.get(uid);
      resp.putClaims(uid, toProto(claim, r));
    }
    errors.forEach((uid, msg) ->
        resp.putClaims(uid, NodePrepareResourceResponse.newBuilder().setError(msg).build()));
    return resp.build();
  }

  public NodeUnprepareResourcesResponse unprepare(Ctx ctx, NodeUnprepareResourcesRequest req)
      throws Exception {
    List<NamespacedObject> claims = new ArrayList<>(req.getClaimsCount());
    for (Claim c : req.getClaimsList()) {
      claims.add(new NamespacedObject(c.getNamespace(), c.getName(), c.getUid()));
    }
    Map<String, Throwable> results;
    try (AutoCloseable unlock = serializer.lock()) {
      results = plugin.unprepareResourceClaims(ctx, claims);
    }
    NodeUnprepareResourcesResponse.Builder resp = NodeUnprepareResourcesResponse.newBuilder();
    for (NamespacedObject c : claims) {
      NodeUnprepareResourceResponse.Builder r = NodeUnprepareResourceResponse.newBuilder();
      if (!results.containsKey(c.uid())) {
        r.setError("driver " + driverName + " returned no result for claim " + c);
      } else if (results.get(c.uid()) != null) {
        r.setError(message(results.get(c.uid())));
      }
      resp.putClaims(c.uid(), r.build());
    }
    return resp.build();
  }

  private NodePrepareResourceResponse toProto(ResourceClaim claim, PrepareResult r) {
    NodePrepareResourceResponse.Builder b = NodePrepareResourceResponse.newBuilder();
    if (r == null) {
      return b.setError("driver " + driverName + " returned no result for claim " + ref(claim))
          .build();
    }
    if (r.error() != null) {
      return b.setError(message(r.error())).build();
    }
    for (Device d : r.devices()) {
      var db =
          b.addDevicesBuilder()
              .setPoolName(d.poolName())
              .setDeviceName(d.deviceName())
              .addAllCdiDeviceIds(d.cdiDeviceIds());
      for (String request : d.requests()) {
        db.addRequestNames(baseRequest(request));
      }
      if (d.shareId() != null) {
        db.setShareId(d.shareId());
      }
    }
    return b.build();
  }

  /** {@code request/subrequest} -> {@code request}: the kubelet knows only the claim's requests. */
  static String baseRequest(String name) {
    int slash = name.indexOf('/');
    return slash < 0 ? name : name.substring(0, slash);
  }

  private ResourceClaim fetch(Claim c) throws ClaimException {
    String ref = c.getNamespace() + "/" + c.getName();
    ResourceClaim claim;
    try {
      claim = claims.get(c.getNamespace(), c.getName());
    } catch (RuntimeException e) {
      throw new ClaimException("retrieve claim " + ref + ": " + e.getMessage());
    }
    if (claim == null) {
      throw new ClaimException("retrieve claim " + ref + ": not found");
    }
    if (!c.getUid().equals(claim.getMetadata().getUid())) {
      throw new ClaimException(
          "claim "
              + ref
              + " got replaced (UID "
              + claim.getMetadata().getUid()
              + ", want "
              + c.getUid()
              + ")");
    }
    var status = claim.getStatus();
    if (status == null || status.getAllocation() == null) {
      throw new ClaimException("claim " + ref + " not allocated");
    }
    List<DeviceRequestAllocationResult> mine = new ArrayList<>();
    var devices = status.getAllocation().getDevices();
    if (devices != null && devices.getResults() != null) {
      for (DeviceRequestAllocationResult r : devices.getResults()) {
        if (driverName.equals(r.getDriver())) {
          mine.add(r);
        }
      }
    }
    if (mine.isEmpty()) {
      throw new ClaimException("claim " + ref + " has no device allocated by driver " + driverName);
    }
    if (mine.size() == devices.getResults().size()) {
      return claim;
    }
    ResourceClaim copy = new ResourceClaimBuilder(claim).build();
    copy.getStatus().getAllocation().getDevices().setResults(mine);
    return copy;
  }

  private static String ref(ResourceClaim claim) {
    return claim.getMetadata().getNamespace() + "/" + claim.getMetadata().getName();
  }

  private static String message(Throwable t) {
    return t.getMessage() != null ? t.getMessage() : t.toString();
  }

  private static final class ClaimException extends Exception {
    ClaimException(String msg) {
      super(msg, null, false, false);
    }
  }
}
