package io.jdra.kubelet.dra.plugin;

import io.grpc.stub.StreamObserver;
import io.jdra.kubelet.dra.DeviceHealth;
import io.jdra.kubelet.dra.HealthInfoCache;
import io.jdra.proto.drahealth.v1alpha1.DRAResourceHealthGrpc;
import io.jdra.proto.drahealth.v1alpha1.HealthStatus;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesRequest;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesResponse;
import io.jdra.runtime.Ctx;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * Follows a driver's NodeWatchResources stream ({@code v1alpha1.DRAResourceHealth}) into the health
 * cache, and reports devices whose health changed. When the stream ends the driver's devices become
 * Unknown; the stream is reopened after a pause for as long as the endpoint is registered.
 */
public final class HealthStream implements DraPluginManager.HealthStarter {
  static final Duration RETRY = Duration.ofSeconds(5);

  private final HealthInfoCache cache;
  private final BiConsumer<String, List<DeviceHealth>> changed;

  /** {@code changed} gets (driver, devices whose health changed) from a gRPC thread. */
  public HealthStream(HealthInfoCache cache, BiConsumer<String, List<DeviceHealth>> changed) {
    this.cache = cache;
    this.changed = changed;
  }

  @Override
  public void start(Ctx ctx, DraPluginClient plugin) {
    if (ctx.isCancelled()) {
      return;
    }
    var call = io.grpc.Context.current().withCancellation();
    ctx.onCancel(() -> call.cancel(null));
    call.run(() ->
        DRAResourceHealthGrpc.newStub(plugin.channel())
            .nodeWatchResources(
                NodeWatchResourcesRequest.getDefaultInstance(), observer(ctx, plugin)));
  }

  private StreamObserver<NodeWatchResourcesResponse> observer(Ctx ctx, DraPluginClient plugin) {
    String driver = plugin.driverName();
    return new StreamObserver<>() {
      @Override
      public void onNext(NodeWatchResourcesResponse resp) {
        List<DeviceHealth> devices = new ArrayList<>();
        for (var d : resp.getDevicesList()) {
          devices.add(
              new DeviceHealth(
                  d.getDevice().getPoolName(),
                  d.getDevice().getDeviceName(),
                  status(d.getHealth()),
                  Instant.ofEpochSecond(d.getLastUpdatedTime()),
                  Duration.ofSeconds(d.getHealthCheckTimeoutSeconds()),
                  d.getMessage()));
        }
        List<DeviceHealth> diff = cache.update(driver, devices);
        if (!diff.isEmpty()) {
          changed.accept(driver, diff);
        }
      }

      @Override
      public void onError(Throwable t) {
        ended("Health stream failed: " + t.getMessage());
      }

      @Override
      public void onCompleted() {
        ended("Health stream ended");
      }

      private void ended(String why) {
        cache.clearDriver(driver);
        if (!ctx.isCancelled()) {
          ctx.logger()
              .v(4)
              .info("Clearing health cache for driver upon stream exit", "reason", why);
          ctx.clock().schedule(RETRY, () -> start(ctx, plugin));
        }
      }
    };
  }

  static String status(HealthStatus s) {
    return switch (s) {
      case HEALTHY -> DeviceHealth.HEALTHY;
      case UNHEALTHY -> DeviceHealth.UNHEALTHY;
      default -> DeviceHealth.UNKNOWN;
    };
  }
}
