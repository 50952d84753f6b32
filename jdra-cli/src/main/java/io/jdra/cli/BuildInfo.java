package io.jdra.cli;

import picocli.CommandLine;

/** What this build of jdra is and which upstream it follows. */
record BuildInfo(String version, String kubernetesVersion, String apiVersion, String java) {
  /** The Kubernetes minor release whose DRA semantics, gates and defaults jdra follows. */
  static final String KUBERNETES_VERSION = "1.36";

  static final String RESOURCE_API = "resource.k8s.io/v1";

  static BuildInfo current() {
    String v = BuildInfo.class.getPackage().getImplementationVersion();
    return new BuildInfo(
        v == null ? "dev" : v,
        KUBERNETES_VERSION,
        RESOURCE_API,
        Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
  }

  /** For {@code jdra --version}. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      BuildInfo b = current();
      return new String[] {"jdra " + b.version() + " (Kubernetes " + b.kubernetesVersion() + ")"};
    }
  }
}
