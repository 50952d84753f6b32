package io.jdra.apiserver.auth;

import static io.jdra.apiserver.auth.PolicyRule.rule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster roles and bindings the server starts with, after upstream's RBAC bootstrap policy
 * ({@code plugin/pkg/auth/authorizer/rbac/bootstrappolicy}) and the dra-example-driver chart's
 * ClusterRole, limited to what jdra serves. Deliberate difference: {@code
 * system:kube-controller-manager} also holds what the controllers jdra runs need (upstream runs
 * them with per-controller service accounts and {@code --use-service-account-credentials}): read
 * everything, update, patch and delete anything (garbage collector, namespace controller), create
 * the kinds the controllers create.
 */
public final class BootstrapPolicy {
  /** The example driver's service account, as its Helm chart names it in its namespace. */
  public static final String EXAMPLE_DRIVER_NAMESPACE = "dra-example-driver";

  public static final String EXAMPLE_DRIVER_SERVICE_ACCOUNT = "dra-example-driver-service-account";

  public static final String SCHEDULER = "system:kube-scheduler";
  public static final String CONTROLLER_MANAGER = "system:kube-controller-manager";

  private static final String[] READ = {"get", "list", "watch"};
  private static final String[] READ_WRITE = {
    "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"
  };
  private static final String CORE = "";
  private static final String RESOURCE = "resource.k8s.io";
  private static final String COORDINATION = "coordination.k8s.io";
  private static final String EVENTS = "events.k8s.io";
  private static final String STORAGE = "storage.k8s.io";
  private static final String SCHEDULING = "scheduling.k8s.io";

  private BootstrapPolicy() {}

  /** RBAC over the bootstrap roles and bindings. */
  public static RbacAuthorizer rbac() {
    Map<String, List<PolicyRule>> roles = new LinkedHashMap<>();
    roles.put("cluster-admin", List.of(rule("*").groups("*").resources("*").build(), allPaths()));
    roles.put("system:discovery", List.of(discovery()));
    roles.put(SCHEDULER, scheduler());
    roles.put(CONTROLLER_MANAGER, controllerManager());
    roles.put("dra-example-driver-role", exampleDriver());
    List<RbacAuthorizer.Binding> bindings =
        List.of(
            new RbacAuthorizer.Binding(true, UserInfo.SYSTEM_MASTERS, "cluster-admin"),
            new RbacAuthorizer.Binding(true, UserInfo.AUTHENTICATED, "system:discovery"),
            new RbacAuthorizer.Binding(false, SCHEDULER, SCHEDULER),
            new RbacAuthorizer.Binding(false, CONTROLLER_MANAGER, CONTROLLER_MANAGER),
            new RbacAuthorizer.Binding(
                false,
                UserInfo.SERVICE_ACCOUNT_PREFIX
                    + EXAMPLE_DRIVER_NAMESPACE
                    + ":"
                    + EXAMPLE_DRIVER_SERVICE_ACCOUNT,
                "dra-example-driver-role"));
    return new RbacAuthorizer(roles, bindings);
  }

  private static PolicyRule allPaths() {
    return rule("*").urls("*").build();
  }

  private static PolicyRule discovery() {
    return rule("get")
        .urls(
            "/api",
            "/api/*",
            "/apis",
            "/apis/*",
            "/openapi",
            "/openapi/*",
            "/version",
            "/version/",
            "/healthz",
            "/livez",
            "/readyz")
        .build();
  }

  /** Upstream's eventsRule: events.k8s.io and core events. */
  private static PolicyRule events() {
    return rule("create", "update", "patch").groups(CORE, EVENTS).resources("events").build();
  }

  static List<PolicyRule> scheduler() {
    return List.of(
        events(),
        rule("create").groups(COORDINATION).resources("leases").build(),
        rule("get", "update")
            .groups(COORDINATION)
            .resources("leases")
            .names("kube-scheduler")
            .build(),
        rule(READ).groups(CORE).resources("nodes", "namespaces").build(),
        rule("get", "list", "watch", "delete").groups(CORE).resources("pods").build(),
        rule("create").groups(CORE).resources("pods/binding", "bindings").build(),
        rule("patch", "update").groups(CORE).resources("pods/status").build(),
        rule(READ)
            .groups(CORE)
            .resources(
                "services", "replicationcontrollers", "persistentvolumeclaims", "persistentvolumes")
            .build(),
        rule(READ).groups("apps").resources("replicasets", "statefulsets").build(),
        rule(READ)
            .groups(STORAGE)
            .resources("storageclasses", "csinodes", "csidrivers", "csistoragecapacities")
            .build(),
        rule("get", "list", "watch", "update", "patch")
            .groups(RESOURCE)
            .resources("resourceclaims", "resourceclaims/status")
            .build(),
        // DRAExtendedResource (on by default in 1.36): the claim for a pod's extended resources.
        rule("create", "delete").groups(RESOURCE).resources("resourceclaims").build(),
        rule(READ)
            .groups(RESOURCE)
            .resources("resourceslices", "deviceclasses", "devicetaintrules")
            .build(),
        rule(READ).groups(SCHEDULING).resources("podgroups", "workloads").build(),
        rule("update", "patch").groups(SCHEDULING).resources("podgroups/status").build());
  }

  static List<PolicyRule> controllerManager() {
    return List.of(
        events(),
        // shared informers and the garbage collector read everything
        rule(READ).groups("*").resources("*").build(),
        // garbage collector and namespace controller: any object, status and finalizers
        rule("update", "patch", "delete", "deletecollection").groups("*").resources("*").build(),
        rule("create")
            .groups(CORE)
            .resources("pods", "pods/eviction", "events", "namespaces/finalize")
            .build(),
        rule("create").groups("apps").resources("replicasets", "controllerrevisions").build(),
        rule("create").groups(RESOURCE).resources("resourceclaims").build(),
        rule("create").groups(COORDINATION).resources("leases").build());
  }

  /**
   * The dra-example-driver chart's ClusterRole, shared by its kubelet plugin and its controller
   * (list and watch are the controller's informer).
   */
  static List<PolicyRule> exampleDriver() {
    return List.of(
        rule(READ).groups(RESOURCE).resources("resourceclaims").build(),
        rule("update").groups(RESOURCE).resources("resourceclaims/status").build(),
        rule("get").groups(CORE).resources("nodes").build(),
        rule("get", "list", "watch", "create", "update", "patch", "delete")
            .groups(RESOURCE)
            .resources("resourceslices")
            .build());
  }

  /**
   * What every node may do regardless of the objects involved (upstream's {@code NodeRules}); the
   * node authorizer narrows pods, nodes, leases, claims and slices to the node's own, and
   * NodeRestriction the writes.
   */
  public static List<PolicyRule> nodeRules() {
    List<PolicyRule> r = new ArrayList<>();
    r.add(rule("create").groups("authentication.k8s.io").resources("tokenreviews").build());
    r.add(
        rule("create")
            .groups("authorization.k8s.io")
            .resources("subjectaccessreviews", "localsubjectaccessreviews")
            .build());
    r.add(rule(READ).groups(CORE).resources("services").build());
    r.add(rule("create", "get", "list", "watch").groups(CORE).resources("nodes").build());
    r.add(rule("update", "patch").groups(CORE).resources("nodes/status", "nodes").build());
    r.add(events());
    r.add(rule(READ).groups(CORE).resources("pods").build());
    r.add(rule("create", "delete").groups(CORE).resources("pods").build());
    r.add(rule("update", "patch").groups(CORE).resources("pods/status").build());
    r.add(rule("create").groups(CORE).resources("pods/eviction").build());
    r.add(rule(READ).groups(CORE).resources("secrets", "configmaps").build());
    r.add(
        rule("get").groups(CORE).resources("persistentvolumeclaims", "persistentvolumes").build());
    r.add(rule("update", "patch").groups(CORE).resources("persistentvolumeclaims/status").build());
    r.add(rule("create").groups(CORE).resources("serviceaccounts/token").build());
    r.add(
        rule("get", "create", "update", "patch", "delete")
            .groups(COORDINATION)
            .resources("leases")
            .build());
    r.add(rule(READ).groups(STORAGE).resources("csidrivers", "volumeattachments").build());
    r.add(
        rule("get", "create", "update", "patch", "delete")
            .groups(STORAGE)
            .resources("csinodes")
            .build());
    r.add(rule(READ).groups("node.k8s.io").resources("runtimeclasses").build());
    r.add(rule("get").groups(RESOURCE).resources("resourceclaims").build());
    r.add(rule(READ_WRITE).groups(RESOURCE).resources("resourceslices").build());
    r.add(discovery());
    return List.copyOf(r);
  }
}
