package io.jdra.apiserver;

import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.admission.Admission;
import io.jdra.apiserver.auth.UserInfo;
import io.jdra.apiserver.http.HttpTimeouts;
import io.jdra.apiserver.rest.Patching;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to run an {@link EmbeddedApiServer}. Validated at construction.
 *
 * @param bindAddress address to listen on (default loopback {@code 127.0.0.1})
 * @param port TCP port, 0 for a free one
 * @param dataDir durable storage and the CA live here; null keeps everything in memory
 * @param tls serve HTTPS with a self-signed CA (kept in {@code dataDir} when set)
 * @param requireToken require a bearer token (generated, written to the kubeconfig)
 * @param kubeconfig where to write a kubeconfig, or null for none
 * @param admission admission run before every write (metadata validation always runs first)
 * @param patching PATCH support
 * @param bookmarkInterval how often watches with allowWatchBookmarks get a BOOKMARK
 * @param watchHistory events remembered per resource for watch resumption
 * @param clock time source for timestamps
 * @param featureGates feature gates of the DRA admission (field dropping)
 * @param tokenUsers bearer tokens of users besides the admin (whose token the kubeconfig carries),
 *     as upstream's {@code --token-auth-file}; used when {@code requireToken} is on
 * @param httpTimeouts how long a connection may stay idle or without a first request, and a request
 *     body may take to arrive (kube-apiserver's by default)
 */
public record ApiServerOptions(
    String bindAddress,
    int port,
    Path dataDir,
    boolean tls,
    boolean requireToken,
    Path kubeconfig,
    Admission admission,
    Patching patching,
    Duration bookmarkInterval,
    int watchHistory,
    Clock clock,
    FeatureGates featureGates,
    Map<String, UserInfo> tokenUsers,
    HttpTimeouts httpTimeouts) {

  public ApiServerOptions {
    Objects.requireNonNull(bindAddress, "bind address");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is not in 0..65535");
    }
    if (watchHistory < 1) {
      throw new IllegalArgumentException("watch history must be at least 1, got " + watchHistory);
    }
    if (bookmarkInterval.isNegative() || bookmarkInterval.isZero()) {
      throw new IllegalArgumentException("bookmark interval must be positive");
    }
    Objects.requireNonNull(admission, "admission");
    Objects.requireNonNull(patching, "patching");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(featureGates, "feature gates");
    tokenUsers = Map.copyOf(tokenUsers);
    Objects.requireNonNull(httpTimeouts, "HTTP timeouts");
  }

  /** In memory, plain HTTP on a free loopback port, no token: what tests want. */
  public static ApiServerOptions inMemory() {
    return new ApiServerOptions(
        "127.0.0.1",
        0,
        null,
        false,
        false,
        null,
        Admission.NONE,
        DefaultPatching.get(),
        Duration.ofSeconds(60),
        10_000,
        Clock.systemUTC(),
        FeatureGates.defaults(),
        Map.of(),
        HttpTimeouts.UPSTREAM);
  }

  public ApiServerOptions withPort(int p) {
    return new ApiServerOptions(
        bindAddress,
        p,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withBindAddress(String a) {
    return new ApiServerOptions(
        a,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withDataDir(Path d) {
    return new ApiServerOptions(
        bindAddress,
        port,
        d,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  /** HTTPS plus a required bearer token. */
  public ApiServerOptions withSecurity(boolean on) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        on,
        on,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withKubeconfig(Path k) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        k,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withAdmission(Admission a) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        a,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withPatching(Patching p) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        p,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withBookmarkInterval(Duration d) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        d,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withWatchHistory(int n) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        n,
        clock,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withFeatureGates(FeatureGates g) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        g,
        tokenUsers,
        httpTimeouts);
  }

  public ApiServerOptions withClock(Clock c) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        c,
        featureGates,
        tokenUsers,
        httpTimeouts);
  }

  /** Adds users by their bearer tokens (see {@code tokenUsers}). */
  public ApiServerOptions withTokenUsers(Map<String, UserInfo> users) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        users,
        httpTimeouts);
  }

  /** Other connection and request-body timeouts than kube-apiserver's (for tests). */
  public ApiServerOptions withHttpTimeouts(HttpTimeouts t) {
    return new ApiServerOptions(
        bindAddress,
        port,
        dataDir,
        tls,
        requireToken,
        kubeconfig,
        admission,
        patching,
        bookmarkInterval,
        watchHistory,
        clock,
        featureGates,
        tokenUsers,
        t);
  }
}
