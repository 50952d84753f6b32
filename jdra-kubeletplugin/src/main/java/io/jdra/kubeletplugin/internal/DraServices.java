package io.jdra.kubeletplugin.internal;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1.NodePrepareResourceResponse;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.proto.dra.v1.NodePrepareResourcesResponse;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesResponse;
import java.util.Map;

/** The gRPC faces of {@link NodeService}: {@code v1.DRAPlugin} and {@code v1beta1.DRAPlugin}. */
public final class DraServices {
  private DraServices() {}

  /** {@code v1.DRAPlugin}. */
  public static final class V1 extends DRAPluginGrpc.DRAPluginImplBase {
    private final NodeService node;

    public V1(NodeService node) {
      this.node = node;
    }

    @Override
    public void nodePrepareResources(
        NodePrepareResourcesRequest req, StreamObserver<NodePrepareResourcesResponse> out) {
      try {
        reply(out, node.prepare(GrpcServer.ctx(), req));
      } catch (Exception e) {
        fail(out, "prepare resource claims", e);
      }
    }

    @Override
    public void nodeUnprepareResources(
        NodeUnprepareResourcesRequest req, StreamObserver<NodeUnprepareResourcesResponse> out) {
      try {
        reply(out, node.unprepare(GrpcServer.ctx(), req));
      } catch (Exception e) {
        fail(out, "unprepare resource claims", e);
      }
    }
  }

  /**
   * {@code v1beta1.DRAPlugin}: the same messages without {@code share_id}, translated field by
   * field to and from v1 (upstream's V1ServerWrapper).
   */
  public static final class V1beta1
      extends io.jdra.proto.dra.v1beta1.DRAPluginGrpc.DRAPluginImplBase {
    private final NodeService node;

    public V1beta1(NodeService node) {
      this.node = node;
    }

    @Override
    public void nodePrepareResources(
        io.jdra.proto.dra.v1beta1.NodePrepareResourcesRequest req,
        StreamObserver<io.jdra.proto.dra.v1beta1.NodePrepareResourcesResponse> out) {
      try {
        NodePrepareResourcesRequest.Builder v1 = NodePrepareResourcesRequest.newBuilder();
        req.getClaimsList().forEach(c -> v1.addClaims(claim(c)));
        NodePrepareResourcesResponse resp = node.prepare(GrpcServer.ctx(), v1.build());
        var b = io.jdra.proto.dra.v1beta1.NodePrepareResourcesResponse.newBuilder();
        for (Map.Entry<String, NodePrepareResourceResponse> e : resp.getClaimsMap().entrySet()) {
          var r = io.jdra.proto.dra.v1beta1.NodePrepareResourceResponse.newBuilder();
          r.setError(e.getValue().getError());
          for (var d : e.getValue().getDevicesList()) {
            r.addDevicesBuilder()
                .addAllRequestNames(d.getRequestNamesList())
                .setPoolName(d.getPoolName())
                .setDeviceName(d.getDeviceName())
                .addAllCdiDeviceIds(d.getCdiDeviceIdsList());
          }
          b.putClaims(e.getKey(), r.build());
        }
        reply(out, b.build());
      } catch (Exception e) {
        fail(out, "prepare resource claims", e);
      }
    }

    @Override
    public void nodeUnprepareResources(
        io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesRequest req,
        StreamObserver<io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesResponse> out) {
      try {
        NodeUnprepareResourcesRequest.Builder v1 = NodeUnprepareResourcesRequest.newBuilder();
        req.getClaimsList().forEach(c -> v1.addClaims(claim(c)));
        NodeUnprepareResourcesResponse resp = node.unprepare(GrpcServer.ctx(), v1.build());
        var b = io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesResponse.newBuilder();
        resp.getClaimsMap()
            .forEach((uid, r) ->
                b.putClaims(
                    uid,
                    io.jdra.proto.dra.v1beta1.NodeUnprepareResourceResponse.newBuilder()
                        .setError(r.getError())
                        .build()));
        reply(out, b.build());
      } catch (Exception e) {
        fail(out, "unprepare resource claims", e);
      }
    }

    private static Claim claim(io.jdra.proto.dra.v1beta1.Claim c) {
      return Claim.newBuilder()
          .setNamespace(c.getNamespace())
          .setUid(c.getUid())
          .setName(c.getName())
          .build();
    }
  }

  private static <T> void reply(StreamObserver<T> out, T value) {
    out.onNext(value);
    out.onCompleted();
  }

  private static void fail(StreamObserver<?> out, String what, Exception e) {
    out.onError(
        Status.UNKNOWN
            .withDescription(what + ": " + e.getMessage())
            .withCause(e)
            .asRuntimeException());
  }
}
