package io.jdra.kubeletplugin;

import io.jdra.kubeletplugin.internal.GrpcServer;
import io.jdra.kubeletplugin.internal.RegistrationService;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Owner;
import io.jdra.kubeletplugin.resourceslice.ResourceSliceController;
import io.jdra.proto.pluginregistration.v1.RegistrationStatus;
import io.jdra.runtime.Ctx;

/**
 * A running plugin, returned by {@link KubeletPlugin#start} (upstream {@code
 * kubeletplugin.Helper}). Thread-safe.
 */
public final class Helper implements AutoCloseable {
  private final Ctx ctx;
  private final DraPlugin plugin;
  private final Options options;
  private final GrpcServer dra;
  private final GrpcServer registrar;
  private final RegistrationService registration;
  private ResourceSliceController slices;
  private boolean stopped;

  Helper(
      Ctx ctx,
      DraPlugin plugin,
      Options options,
      GrpcServer dra,
      GrpcServer registrar,
      RegistrationService registration) {
    this.ctx = ctx;
    this.plugin = plugin;
    this.options = options;
    this.dra = dra;
    this.registrar = registrar;
    this.registration = registration;
    ctx.onCancel(this::stop);
  }

  public Options options() {
    return options;
  }

  /**
   * Publishes the driver's devices as ResourceSlices: node-local pools get {@code spec.nodeName}
   * and an owner reference to the Node, so they disappear with it. The first call starts the
   * ResourceSlice controller (which waits for its informer to sync); later calls replace the
   * desired state, and the controller converges to it in the background. Problems are reported to
   * {@link DraPlugin#handleError} as {@link RecoverableException}s and retried.
   *
   * @throws IllegalStateException no node name was set, or the plugin is stopped
   */
  public synchronized void publishResources(DriverResources resources) {
    if (options.nodeName() == null || options.nodeName().isEmpty()) {
      throw new IllegalStateException("no node name was set to publish resources");
    }
    if (stopped) {
      throw new IllegalStateException("DRA plugin " + options.driverName() + " was stopped");
    }
    if (slices == null) {
      Owner owner = new Owner("v1", "Node", options.nodeName(), options.nodeUid());
      io.jdra.kubeletplugin.resourceslice.Options.Builder o =
          io.jdra.kubeletplugin.resourceslice.Options.builder(
                  options.driverName(), options.kubeClient())
              .owner(owner)
              .resources(resources)
              .errorHandler(
                  (c, err, msg) -> plugin.handleError(c, new RecoverableException(err), msg));
      if (options.sliceSyncDelay() != null) {
        o.syncDelay(options.sliceSyncDelay());
      }
      if (options.sliceMutationCacheTtl() != null) {
        o.mutationCacheTtl(options.sliceMutationCacheTtl());
      }
      slices = ResourceSliceController.start(ctx.withName("ResourceSlice controller"), o.build());
    } else {
      slices.update(resources);
    }
  }

  /** The ResourceSlice controller once {@link #publishResources} ran, else null. */
  public synchronized ResourceSliceController resourceSliceController() {
    return slices;
  }

  /** What the kubelet reported after registration, or null (not yet, or no registrar). */
  public RegistrationStatus registrationStatus() {
    return registration == null ? null : registration.status();
  }

  /**
   * Stops the gRPC servers (removing their sockets) and the ResourceSlice controller; slices stay
   * published. Idempotent; returns when everything has stopped.
   */
  public void stop() {
    ResourceSliceController s;
    synchronized (this) {
      if (stopped) {
        return;
      }
      stopped = true;
      s = slices;
    }
    if (registrar != null) {
      registrar.stop();
    }
    if (dra != null) {
      dra.stop();
    }
    if (s != null) {
      s.stop();
    }
    ctx.cancel();
    ctx.logger().v(3).info("Stopping");
  }

  @Override
  public void close() {
    stop();
  }
}
