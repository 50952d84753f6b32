package io.jdra.kubelet.dra.plugin;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.jdra.kubelet.dra.DraMetrics;
import io.jdra.kubelet.dra.state.Device;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1beta1.DRAPluginGrpc.DRAPluginBlockingStub;
import io.jdra.runtime.Ctx;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@link DraPlugin} over one gRPC endpoint of a driver (upstream DRAPlugin + client.go), speaking
 * the DRA service version chosen at registration: {@code v1.DRAPlugin}, or {@code
 * v1beta1.DRAPlugin} for older drivers. Both versions carry the same fields, so the conversion is
 * one-to-one. Each call has the plugin's timeout (45 s by default) and is recorded in {@code
 * dra_grpc_operations_duration_seconds}.
 */
public final class DraPluginClient implements DraPlugin {
  /** Upstream's service names as drivers advertise them in their registration's versions. */
  public static final String V1_SERVICE = "v1.DRAPlugin";

  public static final String V1BETA1_SERVICE = "v1beta1.DRAPlugin";
  public static final String HEALTH_SERVICE = "v1alpha1.DRAResourceHealth";

  /**
   * Upstream defaultClientCallTimeout: half of the kubelet's pod sync retry period, so a hung
   * driver fails a sync instead of stalling it.
   */
  public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(45);

  private final String driverName;
  private final String endpoint;
  private final String service;
  private final ManagedChannel channel;
  private final Duration timeout;
  private final DraMetrics metrics;

  public DraPluginClient(
      String driverName,
      String endpoint,
      String service,
      ManagedChannel channel,
      Duration timeout,
      DraMetrics metrics) {
    if (!service.equals(V1_SERVICE) && !service.equals(V1BETA1_SERVICE)) {
      throw new IllegalArgumentException("unsupported DRA service " + service);
    }
    this.driverName = driverName;
    this.endpoint = endpoint;
    this.service = service;
    this.channel = channel;
    this.timeout = timeout;
    this.metrics = metrics;
  }

  @Override
  public String driverName() {
    return driverName;
  }

  public String endpoint() {
    return endpoint;
  }

  public String service() {
    return service;
  }

  public ManagedChannel channel() {
    return channel;
  }

  @Override
  public Map<String, PrepareResult> nodePrepareResources(Ctx ctx, List<Claim> claims)
      throws DraCallException {
    return call(
        ctx,
        "NodePrepareResources",
        () -> service.equals(V1_SERVICE) ? prepareV1(claims) : prepareV1beta1(claims));
  }

  @Override
  public Map<String, String> nodeUnprepareResources(Ctx ctx, List<Claim> claims)
      throws DraCallException {
    return call(
        ctx,
        "NodeUnprepareResources",
        () -> service.equals(V1_SERVICE) ? unprepareV1(claims) : unprepareV1beta1(claims));
  }

  private interface Call<T> {
    T run();
  }

  private <T> T call(Ctx ctx, String method, Call<T> call) throws DraCallException {
    Instant start = ctx.clock().now();
    String code = Status.Code.OK.name();
    try {
      return call.run();
    } catch (StatusRuntimeException e) {
      code = e.getStatus().getCode().name();
      throw new DraCallException(
          method + " of DRA driver " + driverName + " at " + endpoint + ": " + e.getStatus(), e);
    } finally {
      metrics.observeGrpc(
          driverName, "/" + serviceFullName() + "/" + method, code, ctx.clock().since(start));
    }
  }

  private String serviceFullName() {
    return service.equals(V1_SERVICE)
        ? io.jdra.proto.dra.v1.DRAPluginGrpc.SERVICE_NAME
        : io.jdra.proto.dra.v1beta1.DRAPluginGrpc.SERVICE_NAME;
  }

  private DRAPluginGrpc.DRAPluginBlockingStub v1() {
    return DRAPluginGrpc.newBlockingStub(channel)
        .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  private DRAPluginBlockingStub v1beta1() {
    return io.jdra.proto.dra.v1beta1.DRAPluginGrpc.newBlockingStub(channel)
        .withDeadlineAfter(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  private Map<String, PrepareResult> prepareV1(List<Claim> claims) {
    var req = io.jdra.proto.dra.v1.NodePrepareResourcesRequest.newBuilder();
    claims.forEach(c ->
        req.addClaims(
            io.jdra.proto.dra.v1.Claim.newBuilder()
                .setNamespace(c.namespace())
                .setUid(c.uid())
                .setName(c.name())));
    Map<String, PrepareResult> out = new LinkedHashMap<>();
    v1().nodePrepareResources(req.build())
        .getClaimsMap()
        .forEach((uid, r) ->
            out.put(
                uid,
                new PrepareResult(
                    r.getDevicesList().stream()
                        .map(d ->
                            new Device(
                                d.getPoolName(),
                                d.getDeviceName(),
                                d.hasShareId() ? d.getShareId() : null,
                                d.getRequestNamesList(),
                                d.getCdiDeviceIdsList()))
                        .toList(),
                    r.getError())));
    return out;
  }

  private Map<String, PrepareResult> prepareV1beta1(List<Claim> claims) {
    var req = io.jdra.proto.dra.v1beta1.NodePrepareResourcesRequest.newBuilder();
    claims.forEach(c ->
        req.addClaims(
            io.jdra.proto.dra.v1beta1.Claim.newBuilder()
                .setNamespace(c.namespace())
                .setUid(c.uid())
                .setName(c.name())));
    Map<String, PrepareResult> out = new LinkedHashMap<>();
    v1beta1()
        .nodePrepareResources(req.build())
        .getClaimsMap()
        .forEach((uid, r) ->
            out.put(
                uid,
                new PrepareResult(
                    r.getDevicesList().stream()
                        .map(d ->
                            new Device(
                                d.getPoolName(),
                                d.getDeviceName(),
                                null,
                                d.getRequestNamesList(),
                                d.getCdiDeviceIdsList()))
                        .toList(),
                    r.getError())));
    return out;
  }

  private Map<String, String> unprepareV1(List<Claim> claims) {
    var req = io.jdra.proto.dra.v1.NodeUnprepareResourcesRequest.newBuilder();
    claims.forEach(c ->
        req.addClaims(
            io.jdra.proto.dra.v1.Claim.newBuilder()
                .setNamespace(c.namespace())
                .setUid(c.uid())
                .setName(c.name())));
    Map<String, String> out = new LinkedHashMap<>();
    v1().nodeUnprepareResources(req.build())
        .getClaimsMap()
        .forEach((uid, r) -> out.put(uid, r.getError()));
    return out;
  }

  private Map<String, String> unprepareV1beta1(List<Claim> claims) {
    var req = io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesRequest.newBuilder();
    claims.forEach(c ->
        req.addClaims(
            io.jdra.proto.dra.v1beta1.Claim.newBuilder()
                .setNamespace(c.namespace())
                .setUid(c.uid())
                .setName(c.name())));
    Map<String, String> out = new LinkedHashMap<>();
    v1beta1()
        .nodeUnprepareResources(req.build())
        .getClaimsMap()
        .forEach((uid, r) -> out.put(uid, r.getError()));
    return out;
  }
}
