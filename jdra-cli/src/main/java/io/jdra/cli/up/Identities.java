package io.jdra.cli.up;

import io.jdra.apiserver.auth.BootstrapPolicy;
import io.jdra.apiserver.auth.UserInfo;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who each component of {@code jdra up} is, as on a kubeadm cluster with the example driver's Helm
 * chart: {@code system:kube-controller-manager}, {@code system:kube-scheduler}, per node {@code
 * system:node:NODE} (group {@code system:nodes}) for the kubelet and the chart's service account
 * {@code system:serviceaccount:dra-example-driver:dra-example-driver-service-account}, bound to the
 * node ({@code authentication.kubernetes.io/node-name}), for its drivers; the same service account
 * without a node for dra-example-controller, which the chart runs as a Deployment with that account
 * (jdra has no pod for it, so no node is bound to its token). Each has a random token made at
 * start. Immutable.
 */
final class Identities {
  /** The kinds of component. */
  enum Component {
    CONTROLLER_MANAGER,
    SCHEDULER,
    KUBELET,
    DRIVER,
    EXAMPLE_CONTROLLER
  }

  /**
   * One component's identity.
   *
   * @param component which component
   * @param node its node, or null for a control-plane component
   * @param user the user it authenticates as
   * @param token its bearer token
   */
  record Identity(Component component, String node, UserInfo user, String token) {}

  private final Identity controllerManager;
  private final Identity scheduler;
  private final Identity exampleController;
  private final Map<String, Identity> kubelets;
  private final Map<String, Identity> drivers;

  private Identities(
      Identity controllerManager,
      Identity scheduler,
      Identity exampleController,
      Map<String, Identity> kubelets,
      Map<String, Identity> drivers) {
    this.controllerManager = controllerManager;
    this.scheduler = scheduler;
    this.exampleController = exampleController;
    this.kubelets = Map.copyOf(kubelets);
    this.drivers = Map.copyOf(drivers);
  }

  /** New identities for the control plane and nodes {@code node-1} .. {@code node-N}. */
  static Identities forCluster(int nodes) {
    SecureRandom random = new SecureRandom();
    Map<String, Identity> kubelets = new LinkedHashMap<>();
    Map<String, Identity> drivers = new LinkedHashMap<>();
    for (int i = 1; i <= nodes; i++) {
      String node = UpOptions.nodeName(i);
      kubelets.put(node, new Identity(Component.KUBELET, node, UserInfo.node(node), token(random)));
      UserInfo driver =
          UserInfo.serviceAccount(
              BootstrapPolicy.EXAMPLE_DRIVER_NAMESPACE,
              BootstrapPolicy.EXAMPLE_DRIVER_SERVICE_ACCOUNT,
              node);
      drivers.put(node, new Identity(Component.DRIVER, node, driver, token(random)));
    }
    return new Identities(
        new Identity(
            Component.CONTROLLER_MANAGER,
            null,
            UserInfo.user(BootstrapPolicy.CONTROLLER_MANAGER),
            token(random)),
        new Identity(
            Component.SCHEDULER, null, UserInfo.user(BootstrapPolicy.SCHEDULER), token(random)),
        new Identity(
            Component.EXAMPLE_CONTROLLER,
            null,
            UserInfo.serviceAccount(
                BootstrapPolicy.EXAMPLE_DRIVER_NAMESPACE,
                BootstrapPolicy.EXAMPLE_DRIVER_SERVICE_ACCOUNT,
                null),
            token(random)),
        kubelets,
        drivers);
  }

  private static String token(SecureRandom random) {
    byte[] b = new byte[24];
    random.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  Identity controllerManager() {
    return controllerManager;
  }

  Identity scheduler() {
    return scheduler;
  }

  Identity exampleController() {
    return exampleController;
  }

  Identity kubelet(String node) {
    return kubelets.get(node);
  }

  Identity driver(String node) {
    return drivers.get(node);
  }

  /** Every identity, control plane first. */
  List<Identity> all() {
    List<Identity> all = new ArrayList<>(List.of(controllerManager, scheduler, exampleController));
    all.addAll(kubelets.values());
    all.addAll(drivers.values());
    return all;
  }

  /** Token to user, for the API server. */
  Map<String, UserInfo> tokenUsers() {
    Map<String, UserInfo> m = new LinkedHashMap<>();
    all().forEach(id -> m.put(id.token(), id.user()));
    return m;
  }
}
