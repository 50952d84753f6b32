package io.jdra.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1.Device;
import io.jdra.proto.dra.v1.NodePrepareResourceResponse;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.proto.dra.v1.NodePrepareResourcesResponse;
import io.jdra.proto.pluginregistration.v1.InfoRequest;
import io.jdra.proto.pluginregistration.v1.PluginInfo;
import io.jdra.proto.pluginregistration.v1.RegistrationGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnixSocketGrpcTest {
  @TempDir Path dir;

  @Test
  void callsOverUnixSocketReachTheServer() throws Exception {
    Path socket = dir.resolve("dra.sock");
    Server server =
        UnixSockets.serverBuilder(socket).addService(new Plugin()).addService(new Reg()).build();
    server.start();
    ManagedChannel channel = UnixSockets.channel(socket);
    try {
      assertThat(Files.exists(socket)).isTrue();
      NodePrepareResourcesResponse response =
          DRAPluginGrpc.newBlockingStub(channel)
              .nodePrepareResources(
                  NodePrepareResourcesRequest.newBuilder()
                      .addClaims(Claim.newBuilder().setUid("uid-1").setName("c").setNamespace("ns"))
                      .build());
      assertThat(response.getClaimsMap().get("uid-1").getDevices(0).getCdiDeviceIds(0))
          .isEqualTo("k8s.gpu.example.com/claim=uid-1-gpu-0");
      assertThat(response.getClaimsMap().get("uid-1").getDevices(0).hasShareId()).isFalse();

      PluginInfo info =
          RegistrationGrpc.newBlockingStub(channel).getInfo(InfoRequest.getDefaultInstance());
      assertThat(info.getSupportedVersionsList()).containsExactly("v1.DRAPlugin");
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void methodPathsAreTheKubeletOnes() {
    assertThat(DRAPluginGrpc.getNodePrepareResourcesMethod().getFullMethodName())
        .isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin/NodePrepareResources");
    assertThat(
            io.jdra.proto.dra.v1beta1.DRAPluginGrpc.getNodeUnprepareResourcesMethod()
                .getFullMethodName())
        .isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin/NodeUnprepareResources");
    assertThat(RegistrationGrpc.getGetInfoMethod().getFullMethodName())
        .isEqualTo("pluginregistration.Registration/GetInfo");
    assertThat(
            io.jdra.proto.drahealth.v1alpha1.DRAResourceHealthGrpc.getNodeWatchResourcesMethod()
                .getFullMethodName())
        .isEqualTo("v1alpha1.DRAResourceHealth/NodeWatchResources");
    assertThat(
            io.jdra.proto.podresources.v1.PodResourcesListerGrpc.getListMethod()
                .getFullMethodName())
        .isEqualTo("v1.PodResourcesLister/List");
  }

  private static final class Plugin extends DRAPluginGrpc.DRAPluginImplBase {
    @Override
    public void nodePrepareResources(
        NodePrepareResourcesRequest request,
        StreamObserver<NodePrepareResourcesResponse> observer) {
      NodePrepareResourcesResponse.Builder response = NodePrepareResourcesResponse.newBuilder();
      for (Claim claim : request.getClaimsList()) {
        Device device =
            Device.newBuilder()
                .addRequestNames("gpu")
                .setPoolName("node-1")
                .setDeviceName("gpu-0")
                .addCdiDeviceIds("k8s.gpu.example.com/claim=" + claim.getUid() + "-gpu-0")
                .build();
        response.putClaims(
            claim.getUid(), NodePrepareResourceResponse.newBuilder().addDevices(device).build());
      }
      observer.onNext(response.build());
      observer.onCompleted();
    }
  }

  private static final class Reg extends RegistrationGrpc.RegistrationImplBase {
    @Override
    public void getInfo(InfoRequest request, StreamObserver<PluginInfo> observer) {
      observer.onNext(PluginInfo.newBuilder().addSupportedVersions("v1.DRAPlugin").build());
      observer.onCompleted();
    }
  }
}
