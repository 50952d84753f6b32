package io.jdra.apiserver;

import java.nio.file.Path;

/** Runs a durable server in a child JVM for the kill -9 test: prints READY URL, then waits. */
public final class DurableServerMain {
  private DurableServerMain() {}

  public static void main(String[] args) throws Exception {
    EmbeddedApiServer s =
        EmbeddedApiServer.start(ApiServerOptions.inMemory().withDataDir(Path.of(args[0])));
    System.out.println("READY " + s.url());
    System.out.flush();
    Thread.currentThread().join(); // serves until the test kills this process
  }
}
