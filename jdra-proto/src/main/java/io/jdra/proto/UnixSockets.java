package io.jdra.proto;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * gRPC over Unix domain sockets, the transport between the kubelet and its plugins.
 *
 * <p>Every server and channel built here shares one small pair of epoll event loop groups (daemon
 * threads, created on first use). A node runs one kubelet and a handful of plugins, and {@code jdra
 * up} runs many of them in one JVM, so per-server event loops would multiply threads for no gain:
 * the loops only move bytes, the calls themselves run on gRPC's executor. Stopping a server or
 * channel releases its socket; the shared loops stay for the next one, as gRPC's own default loops
 * do.
 */
public final class UnixSockets {
  private UnixSockets() {}

  /**
   * A server builder bound to {@code socket} (which must not exist yet: delete a stale one first).
   */
  public static NettyServerBuilder serverBuilder(Path socket) {
    return NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
        .channelType(EpollServerDomainSocketChannel.class)
        .bossEventLoopGroup(Loops.BOSS)
        .workerEventLoopGroup(Loops.WORKERS);
  }

  /** A plaintext channel to the server listening on {@code socket}. */
  public static ManagedChannel channel(Path socket) {
    return channelBuilder(socket).build();
  }

  /** A plaintext channel builder for the server listening on {@code socket}. */
  public static NettyChannelBuilder channelBuilder(Path socket) {
    return NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
        .channelType(EpollDomainSocketChannel.class)
        .eventLoopGroup(Loops.WORKERS)
        .usePlaintext();
  }

  /** Holder idiom: the groups are created when first used, never for a JVM that has no gRPC. */
  private static final class Loops {
    static final EventLoopGroup BOSS = new EpollEventLoopGroup(1, daemon("jdra-uds-accept-"));
    static final EventLoopGroup WORKERS =
        new EpollEventLoopGroup(
            Math.min(4, Runtime.getRuntime().availableProcessors()), daemon("jdra-uds-io-"));

    private static ThreadFactory daemon(String prefix) {
      AtomicInteger n = new AtomicInteger();
      return r -> {
        Thread t = new Thread(r, prefix + n.incrementAndGet());
        t.setDaemon(true);
        return t;
      };
    }
  }
}
