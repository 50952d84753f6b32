package io.jdra.kubeletplugin.internal;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.jdra.kubeletplugin.DeviceHealth;
import io.jdra.kubeletplugin.DeviceHealthSource;
import io.jdra.proto.drahealth.v1alpha1.DRAResourceHealthGrpc;
import io.jdra.proto.drahealth.v1alpha1.DeviceIdentifier;
import io.jdra.proto.drahealth.v1alpha1.HealthStatus;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesRequest;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesResponse;
import io.jdra.runtime.Ctx;

/**
 * {@code v1alpha1.DRAResourceHealth} over a {@link DeviceHealthSource}: each stream gets the full
 * list at once and after every change, until the kubelet cancels it or the plugin stops.
 */
public final class HealthService extends DRAResourceHealthGrpc.DRAResourceHealthImplBase {
  private final DeviceHealthSource source;
  private final Ctx ctx;

  public HealthService(Ctx ctx, DeviceHealthSource source) {
    this.ctx = ctx;
    this.source = source;
  }

  @Override
  public void nodeWatchResources(
      NodeWatchResourcesRequest request, StreamObserver<NodeWatchResourcesResponse> out) {
    ServerCallStreamObserver<NodeWatchResourcesResponse> call =
        (ServerCallStreamObserver<NodeWatchResourcesResponse>) out;
    Object lock = new Object();
    Runnable send =
        () -> {
          synchronized (lock) {
            if (!call.isCancelled()) {
              call.onNext(snapshot());
            }
          }
        };
    AutoCloseable watch = source.watchDeviceHealth(send);
    Ctx.Registration stop =
        ctx.onCancel(() -> {
          synchronized (lock) {
            if (!call.isCancelled()) {
              call.onCompleted();
            }
          }
        });
    call.setOnCancelHandler(() -> {
      stop.close();
      closeQuietly(watch);
    });
    send.run();
  }

  private NodeWatchResourcesResponse snapshot() {
    NodeWatchResourcesResponse.Builder b = NodeWatchResourcesResponse.newBuilder();
    for (DeviceHealth h : source.deviceHealth()) {
      b.addDevicesBuilder()
          .setDevice(
              DeviceIdentifier.newBuilder().setPoolName(h.poolName()).setDeviceName(h.deviceName()))
          .setHealth(HealthStatus.valueOf(h.status().name()))
          .setLastUpdatedTime(h.lastUpdated() == null ? 0 : h.lastUpdated().getEpochSecond())
          .setHealthCheckTimeoutSeconds(h.healthCheckTimeoutSeconds())
          .setMessage(h.message());
    }
    return b.build();
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // Nothing to do: the stream is gone either way.
    }
  }
}
