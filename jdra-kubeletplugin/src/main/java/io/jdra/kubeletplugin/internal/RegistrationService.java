package io.jdra.kubeletplugin.internal;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.jdra.proto.pluginregistration.v1.InfoRequest;
import io.jdra.proto.pluginregistration.v1.PluginInfo;
import io.jdra.proto.pluginregistration.v1.RegistrationGrpc;
import io.jdra.proto.pluginregistration.v1.RegistrationStatus;
import io.jdra.proto.pluginregistration.v1.RegistrationStatusResponse;
import java.util.List;

/**
 * The plugin side of kubelet plugin registration (upstream registrationserver.go): answers GetInfo
 * with type {@code DRAPlugin}, the driver name, the DRA socket and the served versions, and records
 * what the kubelet reports back.
 */
public final class RegistrationService extends RegistrationGrpc.RegistrationImplBase {
  /** The plugin type the kubelet's DRA registration handler accepts. */
  public static final String DRA_PLUGIN_TYPE = "DRAPlugin";

  private final PluginInfo info;
  private volatile RegistrationStatus status;

  public RegistrationService(String driverName, String endpoint, List<String> supportedVersions) {
    this.info =
        PluginInfo.newBuilder()
            .setType(DRA_PLUGIN_TYPE)
            .setName(driverName)
            .setEndpoint(endpoint)
            .addAllSupportedVersions(supportedVersions)
            .build();
  }

  /** The last status the kubelet sent, or null before registration. */
  public RegistrationStatus status() {
    return status;
  }

  @Override
  public void getInfo(InfoRequest request, StreamObserver<PluginInfo> out) {
    out.onNext(info);
    out.onCompleted();
  }

  @Override
  public void notifyRegistrationStatus(
      RegistrationStatus request, StreamObserver<RegistrationStatusResponse> out) {
    status = request;
    if (!request.getPluginRegistered()) {
      // As upstream: the kubelet logs our error; the plugin keeps serving and may be retried.
      out.onError(
          Status.UNKNOWN
              .withDescription("failed registration process: " + request.getError())
              .asRuntimeException());
      return;
    }
    out.onNext(RegistrationStatusResponse.getDefaultInstance());
    out.onCompleted();
  }
}
