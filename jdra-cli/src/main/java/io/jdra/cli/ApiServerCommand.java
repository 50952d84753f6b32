package io.jdra.cli;

import io.jdra.apiserver.ApiServerOptions;
import io.jdra.apiserver.EmbeddedApiServer;
import io.jdra.apiserver.auth.TokenFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code jdra apiserver}: the embedded Kubernetes-compatible API server as a process. */
@Command(
    name = "apiserver",
    mixinStandardHelpOptions = true,
    description = {
      "Run the embedded Kubernetes-compatible API server (HTTPS, bearer token).",
      "Writes a kubeconfig that kubectl and fabric8 clients use as is."
    })
final class ApiServerCommand implements Callable<Integer> {
  @ParentCommand JdraCommand parent;
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--bind-address",
      paramLabel = "ADDR",
      defaultValue = "127.0.0.1",
      description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String bindAddress;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      defaultValue = "6443",
      description = "HTTPS port, 0 for a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(
      names = "--data-dir",
      paramLabel = "DIR",
      description = "Keep objects, CA and token here (durable); in memory without it.")
  Path dataDir;

  @Option(
      names = "--kubeconfig",
      paramLabel = "FILE",
      description =
          "Where to write the kubeconfig (default: DIR/kubeconfig, else ./jdra.kubeconfig).")
  Path kubeconfig;

  @Option(
      names = "--token-auth-file",
      paramLabel = "FILE",
      description = {
        "Users besides the admin, as kube-apiserver's: one CSV record per line,",
        "token,user,uid,\"group1,group2\"[,\"key=value,...\" extra values]. Requests are",
        "authorized as kubeadm's cluster (Node,RBAC with the bootstrap roles,",
        "NodeRestriction); the kubeconfig's admin is in system:masters."
      })
  Path tokenAuthFile;

  @Override
  public Integer call() throws InterruptedException {
    Path kc =
        kubeconfig != null
            ? kubeconfig
            : dataDir != null ? dataDir.resolve("kubeconfig") : Path.of("jdra.kubeconfig");
    ApiServerOptions o;
    try {
      o =
          ApiServerOptions.inMemory()
              .withBindAddress(bindAddress)
              .withPort(port)
              .withDataDir(dataDir)
              .withSecurity(true)
              .withKubeconfig(kc)
              .withFeatureGates(parent.global.featureGates());
      if (tokenAuthFile != null) {
        o = o.withTokenUsers(TokenFile.read(tokenAuthFile));
      }
    } catch (IllegalArgumentException e) {
      throw new UserException(e.getMessage());
    } catch (java.nio.file.NoSuchFileException e) {
      throw new UserException("--token-auth-file " + tokenAuthFile + ": no such file", e);
    } catch (IOException e) {
      throw new UserException("--token-auth-file " + tokenAuthFile + ": " + e.getMessage(), e);
    }
    EmbeddedApiServer server;
    try {
      server = EmbeddedApiServer.start(o);
    } catch (RuntimeException e) {
      throw new UserException("start API server: " + e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println("API server listening on " + server.url());
    out.println("kubeconfig: " + kc.toAbsolutePath());
    out.flush();
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> {
              server.close();
              stop.countDown();
            }));
    stop.await();
    return 0;
  }
}
