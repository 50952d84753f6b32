package io.jdra.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Objects for the scheduler_perf templates that the upstream copy on this machine lacks (it has
 * only deviceclass, node-with-dra-test-driver, pod-with-claim-template and resourceclaimtemplate):
 * jdra's description of what upstream's templates of the same name create, as JSON-shaped maps,
 * keyed by upstream's template path. Used only by the built-in catalogue; a {@code --config} file's
 * templates must exist.
 */
final class BuiltinTemplates {
  private static final String DRIVER = SchedulerBench.DRIVER;

  private BuiltinTemplates() {}

  static final Map<String, Function<Map<String, Object>, Map<String, Object>>> ALL =
      Map.ofEntries(
          Map.entry("templates/node-with-dra-test-driver.yaml", BuiltinTemplates::node),
          Map.entry("templates/deviceclass.yaml", BuiltinTemplates::deviceClass),
          Map.entry("templates/pod-with-claim-template.yaml", BuiltinTemplates::podWithTemplate),
          Map.entry("templates/resourceclaimtemplate.yaml", BuiltinTemplates::claimTemplate),
          Map.entry("templates/resourceclaim.yaml", BuiltinTemplates::claim),
          Map.entry("templates/pod-with-claim-ref.yaml", BuiltinTemplates::podWithClaimRef),
          Map.entry("templates/resourceslice-basic-devices.yaml", BuiltinTemplates::basicSlice),
          Map.entry(
              "templates/resourceclaimtemplate-first-available.yaml",
              BuiltinTemplates::firstAvailable),
          Map.entry("templates/deviceclass-no-devices.yaml", BuiltinTemplates::noDevicesClass),
          Map.entry(
              "templates/resourceslice-partitionable-countersets.yaml",
              BuiltinTemplates::counterSets),
          Map.entry(
              "templates/resourceslice-partitionable-devices.yaml", BuiltinTemplates::partitions),
          Map.entry(
              "templates/resourceclaim-with-selector.yaml", BuiltinTemplates::claimWithSelector),
          Map.entry(
              "templates/resourceclaimtemplate-for-two-devices.yaml",
              BuiltinTemplates::twoDevices));

  /** Node scheduler-perf-dra-INDEX: 110 pods, 4 CPUs, 32Gi, Ready. */
  private static Map<String, Object> node(Map<String, Object> p) {
    Map<String, Object> capacity = m("pods", "110", "cpu", "4", "memory", "32Gi");
    return m(
        "apiVersion", "v1",
        "kind", "Node",
        "metadata", m("name", "scheduler-perf-dra-" + index(p)),
        "spec", m(),
        "status",
            m(
                "capacity",
                capacity,
                "conditions",
                List.of(m("type", "Ready", "status", "True")),
                "phase",
                "Running"));
  }

  /** test-class: every device of the test driver. */
  private static Map<String, Object> deviceClass(Map<String, Object> p) {
    String cel = "device.driver == \"" + DRIVER + "\"";
    return object(
        "resource.k8s.io/v1",
        "DeviceClass",
        "test-class",
        m("selectors", List.of(m("cel", m("expression", cel)))));
  }

  /** A pod (generateName test-dra) with one claim from test-claim-template. */
  private static Map<String, Object> podWithTemplate(Map<String, Object> p) {
    Map<String, Object> container =
        m(
            "name", "pause",
            "image", "registry.k8s.io/pause:3.10.1",
            "resources", m("claims", List.of(m("name", "resource"))));
    return m(
        "apiVersion",
        "v1",
        "kind",
        "Pod",
        "metadata",
        m("generateName", "test-dra"),
        "spec",
        m(
            "containers", List.of(container),
            "resourceClaims",
                List.of(
                    m("name", "resource", "resourceClaimTemplateName", "test-claim-template"))));
  }

  /**
   * test-claim-template: {@code numRequests} (default 1) requests req-N for one device of
   * test-class each, with the {@code selectors} and claim {@code constraints} given (or none).
   */
  private static Map<String, Object> claimTemplate(Map<String, Object> p) {
    long n =
        p.get("numRequests") == null
            ? 1
            : GoTemplateExpr.toLong("numRequests", p.get("numRequests"));
    List<Object> requests = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      Map<String, Object> exactly = m("deviceClassName", "test-class");
      if (p.get("selectors") != null) {
        exactly.put("selectors", p.get("selectors"));
      }
      requests.add(request("req-" + i, exactly));
    }
    Map<String, Object> devices = m("requests", requests);
    if (p.get("constraints") != null) {
      devices.put("constraints", p.get("constraints"));
    }
    return template(devices);
  }

  /** A claim for one device of test-class, named by the index. */
  private static Map<String, Object> claim(Map<String, Object> p) {
    return object(
        "resource.k8s.io/v1",
        "ResourceClaim",
        "test-claim-" + index(p),
        m("devices", m("requests", List.of(request("req-0", m("deviceClassName", "test-class"))))));
  }

  /** A pod using the named claim test-claim-(Index/5): five pods share each claim. */
  private static Map<String, Object> podWithClaimRef(Map<String, Object> p) {
    long claim = index(p) / 5;
    Map<String, Object> container =
        m(
            "name", "pause",
            "image", "registry.k8s.io/pause:3.10.1",
            "resources", m("claims", List.of(m("name", "resource"))));
    return object(
        "v1",
        "Pod",
        "test-dra-" + index(p),
        m(
            "containers", List.of(container),
            "resourceClaims",
                List.of(m("name", "resource", "resourceClaimName", "test-claim-" + claim))));
  }

  /**
   * One slice for node scheduler-perf-dra-INDEX with {@code numDevices} (default 10) GPU-like
   * devices; {@code numPCIRoots} alternates their pciRoot attribute (otherwise each has its own).
   */
  private static Map<String, Object> basicSlice(Map<String, Object> p) {
    long n =
        p.get("numDevices") == null ? 10 : GoTemplateExpr.toLong("numDevices", p.get("numDevices"));
    Object rootsParam = p.get("numPCIRoots");
    long roots = rootsParam == null ? 0 : GoTemplateExpr.toLong("numPCIRoots", rootsParam);
    List<Object> devices = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      Map<String, Object> attrs =
          m(
              "model", m("string", "A100"),
              "family", m("string", "GPU"),
              "driverVersion", m("version", "1.2.3"),
              "resource.kubernetes.io/pciRoot",
                  m("string", Long.toString(roots > 0 ? i % roots : i)));
      devices.add(
          m(
              "name",
              "basic-device-" + i,
              "attributes",
              attrs,
              "capacity",
              m("memory", m("value", "1Gi"))));
    }
    String name = "resourceslice-" + index(p);
    return object(
        "resource.k8s.io/v1",
        "ResourceSlice",
        name,
        m(
            "pool",
            pool(name, 1),
            "driver",
            DRIVER,
            "nodeName",
            "scheduler-perf-dra-" + index(p),
            "devices",
            devices));
  }

  /** A class whose selector matches no device (no-devices-class). */
  private static Map<String, Object> noDevicesClass(Map<String, Object> p) {
    String cel = "device.driver == \"no-such-driver.cdi.k8s.io\"";
    Map<String, Object> c =
        object(
            "resource.k8s.io/v1",
            "DeviceClass",
            "no-devices-class",
            m("selectors", List.of(m("cel", m("expression", cel)))));
    return c;
  }

  /** One device, preferably of no-devices-class (never available), else of test-class. */
  private static Map<String, Object> firstAvailable(Map<String, Object> p) {
    Map<String, Object> req =
        m(
            "name",
            "req-0",
            "firstAvailable",
            List.of(
                m("name", "sub-0", "deviceClassName", "no-devices-class"),
                m("name", "sub-1", "deviceClassName", "test-class")));
    return template(m("requests", List.of(req)));
  }

  /**
   * The counter-set slice of pool resourceslice-INDEX: one set of four counters of 1. Available on
   * every node (see {@link #partitions}).
   */
  private static Map<String, Object> counterSets(Map<String, Object> p) {
    Map<String, Object> counters = new LinkedHashMap<>();
    for (int c = 1; c <= 4; c++) {
      counters.put("counter" + c, m("value", "1"));
    }
    return object(
        "resource.k8s.io/v1",
        "ResourceSlice",
        "resourceslice-countersets-" + index(p),
        m(
            "pool",
            pool("resourceslice-" + index(p), 2),
            "driver",
            DRIVER,
            "allNodes",
            true,
            "sharedCounters",
            List.of(m("name", "counter-set", "counters", counters))));
  }

  /**
   * The device slice of pool resourceslice-INDEX: six devices drawing on the counter set, two
   * taking two counters each (one of them "preallocate"), four taking one each. Upstream's select
   * nodes labelled node-with-dra=true, which the node template of the copy here does not set; these
   * are available on every node instead.
   */
  private static Map<String, Object> partitions(Map<String, Object> p) {
    long idx = index(p);
    List<Object> devices = new ArrayList<>();
    devices.add(partition("device-2-counters-1", idx, true, 2, "counter1", "counter2"));
    devices.add(partition("device-2-counters-2", idx, false, 2, "counter3", "counter4"));
    for (int c = 1; c <= 4; c++) {
      devices.add(partition("device-1-counter-" + c, idx, false, 1, "counter" + c));
    }
    return object(
        "resource.k8s.io/v1",
        "ResourceSlice",
        "resourceslice-devices-" + idx,
        m(
            "pool",
            pool("resourceslice-" + idx, 2),
            "driver",
            DRIVER,
            "allNodes",
            true,
            "devices",
            devices));
  }

  private static Map<String, Object> partition(
      String name, long slice, boolean preallocate, int size, String... counters) {
    Map<String, Object> consumed = new LinkedHashMap<>();
    for (String c : counters) {
      consumed.put(c, m("value", "1"));
    }
    return m(
        "name", name,
        "attributes",
            m(
                "preallocate", m("bool", preallocate),
                "dra.example.com/slice", m("int", slice)),
        "capacity", m("counters", m("value", Integer.toString(size))),
        "consumesCounters", List.of(m("counterSet", "counter-set", "counters", consumed)));
  }

  /** A claim for a preallocate device with two counters' capacity, named by the index. */
  private static Map<String, Object> claimWithSelector(Map<String, Object> p) {
    String cel =
        "device.capacity['"
            + DRIVER
            + "'].counters.compareTo(quantity('2')) >= 0 &&\n"
            + "device.attributes['"
            + DRIVER
            + "'].preallocate";
    Map<String, Object> exactly =
        m("deviceClassName", "test-class", "selectors", List.of(m("cel", m("expression", cel))));
    return object(
        "resource.k8s.io/v1",
        "ResourceClaim",
        "test-claim-with-selector-" + index(p),
        m("devices", m("requests", List.of(request("req-0", exactly)))));
  }

  /** Two devices of test-class from the same slice (matchAttribute dra.example.com/slice). */
  private static Map<String, Object> twoDevices(Map<String, Object> p) {
    return template(
        m(
            "requests",
            List.of(request("req-0", m("deviceClassName", "test-class", "count", 2))),
            "constraints",
            List.of(m("requests", List.of("req-0"), "matchAttribute", "dra.example.com/slice"))));
  }

  private static Map<String, Object> template(Map<String, Object> devices) {
    return object(
        "resource.k8s.io/v1",
        "ResourceClaimTemplate",
        "test-claim-template",
        m("spec", m("devices", devices)));
  }

  private static Map<String, Object> request(String name, Map<String, Object> exactly) {
    return m("name", name, "exactly", exactly);
  }

  private static Map<String, Object> pool(String name, int slices) {
    return m("name", name, "generation", 1, "resourceSliceCount", slices);
  }

  private static Map<String, Object> object(
      String apiVersion, String kind, String name, Map<String, Object> spec) {
    return m("apiVersion", apiVersion, "kind", kind, "metadata", m("name", name), "spec", spec);
  }

  private static long index(Map<String, Object> p) {
    Object i = p.get("Index");
    return i == null ? 0 : GoTemplateExpr.toLong("Index", i);
  }

  private static Map<String, Object> m(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }
}
