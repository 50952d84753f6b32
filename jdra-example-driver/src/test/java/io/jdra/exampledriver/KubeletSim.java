package io.jdra.exampledriver;

import io.grpc.ManagedChannel;
import io.jdra.proto.UnixSockets;
import io.jdra.proto.dra.v1.Claim;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1.NodePrepareResourceResponse;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.jdra.proto.pluginregistration.v1.InfoRequest;
import io.jdra.proto.pluginregistration.v1.PluginInfo;
import io.jdra.proto.pluginregistration.v1.RegistrationGrpc;
import io.jdra.proto.pluginregistration.v1.RegistrationStatus;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Plays the kubelet: registration over the registration socket, DRA calls over the endpoint. */
public final class KubeletSim implements AutoCloseable {
  private final ManagedChannel reg;
  private ManagedChannel dra;
  private DRAPluginGrpc.DRAPluginBlockingStub stub;

  public KubeletSim(Path registrationSocket) {
    reg = UnixSockets.channel(registrationSocket);
  }

  /** GetInfo, connect to the announced endpoint, report success (as the plugin watcher does). */
  public PluginInfo register() {
    PluginInfo info =
        RegistrationGrpc.newBlockingStub(reg).getInfo(InfoRequest.getDefaultInstance());
    dra = UnixSockets.channel(Path.of(info.getEndpoint()));
    stub = DRAPluginGrpc.newBlockingStub(dra);
    RegistrationGrpc.newBlockingStub(reg)
        .notifyRegistrationStatus(
            RegistrationStatus.newBuilder().setPluginRegistered(true).build());
    return info;
  }

  public ManagedChannel dra() {
    return dra;
  }

  public static Claim claim(String ns, String name, String uid) {
    return Claim.newBuilder().setNamespace(ns).setName(name).setUid(uid).build();
  }

  public NodePrepareResourceResponse prepare(Claim c) {
    return stub.nodePrepareResources(NodePrepareResourcesRequest.newBuilder().addClaims(c).build())
        .getClaimsOrThrow(c.getUid());
  }

  public String unprepare(Claim c) {
    return stub.nodeUnprepareResources(
            NodeUnprepareResourcesRequest.newBuilder().addClaims(c).build())
        .getClaimsOrThrow(c.getUid())
        .getError();
  }

  @Override
  public void close() throws InterruptedException {
    reg.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    if (dra != null) {
      dra.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
