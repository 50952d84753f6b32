package io.jdra.kubelet.fake;

import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.jdra.proto.UnixSockets;
import io.jdra.proto.dra.v1.DRAPluginGrpc;
import io.jdra.proto.dra.v1.NodePrepareResourceResponse;
import io.jdra.proto.dra.v1.NodePrepareResourcesRequest;
import io.jdra.proto.dra.v1.NodePrepareResourcesResponse;
import io.jdra.proto.dra.v1.NodeUnprepareResourceResponse;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesRequest;
import io.jdra.proto.dra.v1.NodeUnprepareResourcesResponse;
import io.jdra.proto.drahealth.v1alpha1.DRAResourceHealthGrpc;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesRequest;
import io.jdra.proto.drahealth.v1alpha1.NodeWatchResourcesResponse;
import io.jdra.proto.pluginregistration.v1.InfoRequest;
import io.jdra.proto.pluginregistration.v1.PluginInfo;
import io.jdra.proto.pluginregistration.v1.RegistrationGrpc;
import io.jdra.proto.pluginregistration.v1.RegistrationStatus;
import io.jdra.proto.pluginregistration.v1.RegistrationStatusResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A DRA driver for tests, over real Unix sockets with the generated stubs: a registration server in
 * {@code <registry>/<name>-reg.sock} and the DRA service (v1 and/or v1beta1, plus optionally
 * health) on {@code <plugins>/<name>/dra.sock} (or another endpoint for rolling updates). It
 * records every call and prepares every claim with one device {@code dev-<claim name>} in pool
 * {@code pool}, CDI ID {@code <vendor>/gpu=<claim uid>}. Claims listed in {@link #failClaims} get a
 * per-claim error.
 */
public final class FakeDriver implements AutoCloseable {
  public final String name;
  public final Path regSocket;
  public final Path endpoint;
  public final List<String> services;

  /** Each NodePrepareResources call's claim UIDs. */
  public final List<List<String>> prepareCalls = new CopyOnWriteArrayList<>();

  /**
   * Time spent in the v1 NodePrepareResources handler, by claim name (each claim of a call gets the
   * call's time): the driver's own work, which benchmarks leave out of the kubelet's.
   */
  public final Map<String, Long> prepareHandlerNanos = new ConcurrentHashMap<>();

  /** Each NodeUnprepareResources call's claim UIDs. */
  public final List<List<String>> unprepareCalls = new CopyOnWriteArrayList<>();

  public final LinkedBlockingQueue<RegistrationStatus> registrationStatus =
      new LinkedBlockingQueue<>();
  public final Set<String> failClaims = ConcurrentHashMap.newKeySet();
  private final List<StreamObserver<NodeWatchResourcesResponse>> healthStreams =
      new CopyOnWriteArrayList<>();
  private final List<Server> servers = new ArrayList<>();

  private FakeDriver(String name, Path regSocket, Path endpoint, List<String> services) {
    this.name = name;
    this.regSocket = regSocket;
    this.endpoint = endpoint;
    this.services = services;
  }

  /** Starts the DRA server first, then the registration socket (as real drivers do). */
  public static FakeDriver start(
      Path registryDir, Path endpoint, String name, List<String> services) throws IOException {
    return startAt(registryDir.resolve(name + "-reg.sock"), endpoint, name, services);
  }

  /** A driver whose registration socket is {@code regSocket} (two instances of one driver). */
  public static FakeDriver startAt(
      Path regSocket, Path endpoint, String name, List<String> services) throws IOException {
    FakeDriver d = new FakeDriver(name, regSocket, endpoint, List.copyOf(services));
    Files.createDirectories(endpoint.getParent());
    Files.deleteIfExists(endpoint);
    var dra = UnixSockets.serverBuilder(endpoint);
    if (services.contains("v1.DRAPlugin")) {
      dra.addService(d.new V1());
    }
    if (services.contains("v1beta1.DRAPlugin")) {
      dra.addService(d.new V1beta1());
    }
    if (services.contains("v1alpha1.DRAResourceHealth")) {
      dra.addService(d.new Health());
    }
    d.servers.add(dra.build().start());
    Files.createDirectories(regSocket.getParent());
    Files.deleteIfExists(regSocket);
    d.servers.add(
        UnixSockets.serverBuilder(regSocket).addService(d.new Registration()).build().start());
    return d;
  }

  /** Sends a health report to every open NodeWatchResources stream. */
  public void reportHealth(NodeWatchResourcesResponse resp) {
    healthStreams.forEach(s -> s.onNext(resp));
  }

  public int healthStreamCount() {
    return healthStreams.size();
  }

  /** Stops the servers and removes the registration socket (the driver goes away). */
  @Override
  public void close() throws IOException {
    for (Server s : servers) {
      s.shutdownNow();
    }
    for (Server s : servers) {
      try {
        s.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Files.deleteIfExists(regSocket);
    Files.deleteIfExists(endpoint);
  }

  /** Stops only the DRA server (the process crashed but its registration socket file remains). */
  public void killDraServer() {
    servers.get(0).shutdownNow();
  }

  private final class Registration extends RegistrationGrpc.RegistrationImplBase {
    @Override
    public void getInfo(InfoRequest req, StreamObserver<PluginInfo> out) {
      out.onNext(
          PluginInfo.newBuilder()
              .setType("DRAPlugin")
              .setName(name)
              .setEndpoint(endpoint.toString())
              .addAllSupportedVersions(services)
              .build());
      out.onCompleted();
    }

    @Override
    public void notifyRegistrationStatus(
        RegistrationStatus status, StreamObserver<RegistrationStatusResponse> out) {
      registrationStatus.add(status);
      out.onNext(RegistrationStatusResponse.getDefaultInstance());
      out.onCompleted();
    }
  }

  private final class V1 extends DRAPluginGrpc.DRAPluginImplBase {
    @Override
    public void nodePrepareResources(
        NodePrepareResourcesRequest req, StreamObserver<NodePrepareResourcesResponse> out) {
      long start = System.nanoTime();
      prepareCalls.add(req.getClaimsList().stream().map(c -> c.getUid()).toList());
      var resp = NodePrepareResourcesResponse.newBuilder();
      for (var c : req.getClaimsList()) {
        if (failClaims.contains(c.getName())) {
          resp.putClaims(
              c.getUid(),
              NodePrepareResourceResponse.newBuilder().setError("injected failure").build());
          continue;
        }
        resp.putClaims(
            c.getUid(),
            NodePrepareResourceResponse.newBuilder()
                .addDevices(
                    io.jdra.proto.dra.v1.Device.newBuilder()
                        .setPoolName("pool")
                        .setDeviceName("dev-" + c.getName())
                        .addRequestNames("req")
                        .addCdiDeviceIds(name + "/gpu=" + c.getUid()))
                .build());
      }
      out.onNext(resp.build());
      out.onCompleted();
      long took = System.nanoTime() - start;
      req.getClaimsList().forEach(c -> prepareHandlerNanos.put(c.getName(), took));
    }

    @Override
    public void nodeUnprepareResources(
        NodeUnprepareResourcesRequest req, StreamObserver<NodeUnprepareResourcesResponse> out) {
      unprepareCalls.add(req.getClaimsList().stream().map(c -> c.getUid()).toList());
      var resp = NodeUnprepareResourcesResponse.newBuilder();
      req.getClaimsList()
          .forEach(
              c -> resp.putClaims(c.getUid(), NodeUnprepareResourceResponse.getDefaultInstance()));
      out.onNext(resp.build());
      out.onCompleted();
    }
  }

  private final class V1beta1 extends io.jdra.proto.dra.v1beta1.DRAPluginGrpc.DRAPluginImplBase {
    @Override
    public void nodePrepareResources(
        io.jdra.proto.dra.v1beta1.NodePrepareResourcesRequest req,
        StreamObserver<io.jdra.proto.dra.v1beta1.NodePrepareResourcesResponse> out) {
      prepareCalls.add(req.getClaimsList().stream().map(c -> c.getUid()).toList());
      var resp = io.jdra.proto.dra.v1beta1.NodePrepareResourcesResponse.newBuilder();
      for (var c : req.getClaimsList()) {
        resp.putClaims(
            c.getUid(),
            io.jdra.proto.dra.v1beta1.NodePrepareResourceResponse.newBuilder()
                .addDevices(
                    io.jdra.proto.dra.v1beta1.Device.newBuilder()
                        .setPoolName("pool")
                        .setDeviceName("dev-" + c.getName())
                        .addRequestNames("req")
                        .addCdiDeviceIds(name + "/gpu=" + c.getUid()))
                .build());
      }
      out.onNext(resp.build());
      out.onCompleted();
    }

    @Override
    public void nodeUnprepareResources(
        io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesRequest req,
        StreamObserver<io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesResponse> out) {
      unprepareCalls.add(req.getClaimsList().stream().map(c -> c.getUid()).toList());
      var resp = io.jdra.proto.dra.v1beta1.NodeUnprepareResourcesResponse.newBuilder();
      req.getClaimsList()
          .forEach(c ->
              resp.putClaims(
                  c.getUid(),
                  io.jdra.proto.dra.v1beta1.NodeUnprepareResourceResponse.getDefaultInstance()));
      out.onNext(resp.build());
      out.onCompleted();
    }
  }

  private final class Health extends DRAResourceHealthGrpc.DRAResourceHealthImplBase {
    @Override
    public void nodeWatchResources(
        NodeWatchResourcesRequest req, StreamObserver<NodeWatchResourcesResponse> out) {
      healthStreams.add(out);
    }
  }
}
