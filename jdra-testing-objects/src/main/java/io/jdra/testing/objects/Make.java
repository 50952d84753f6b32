package io.jdra.testing.objects;

/**
 * Entry point of the test object builders, named as upstream's scheduler test wrappers ({@code
 * pkg/scheduler/testing/wrappers.go}: {@code MakePod()}, {@code MakeResourceClaim()}, ...). Every
 * builder is a fresh mutable wrapper; {@code obj()} returns a new object each call, so one wrapper
 * can produce variants in a test table:
 *
 * <pre>{@code
 * Pod pod = Make.pod("p").namespace("ns").uid("u").claimFromTemplate("gpu", "gpu-template").obj();
 * ResourceClaim claim = Make.claim("c").namespace("ns").request("gpu.example.com").obj();
 * ResourceSlice slice = Make.slice("s", "node-1", "driver").device("gpu-0").obj();
 * }</pre>
 *
 * No defaults beyond what the API server would need to accept the object: no namespace unless set,
 * no UID unless set.
 */
public final class Make {
  private Make() {}

  public static PodWrapper pod(String name) {
    return new PodWrapper(name);
  }

  public static ClaimWrapper claim(String name) {
    return new ClaimWrapper(name);
  }

  public static ClaimTemplateWrapper claimTemplate(String name) {
    return new ClaimTemplateWrapper(name);
  }

  /** A slice of a one-slice pool named after the node (or the driver when nodeName is null). */
  public static SliceWrapper slice(String name, String nodeName, String driver) {
    return new SliceWrapper(name, nodeName, driver);
  }

  public static DeviceWrapper device(String name) {
    return new DeviceWrapper(name);
  }

  public static DeviceClassWrapper deviceClass(String name) {
    return new DeviceClassWrapper(name);
  }

  public static NodeWrapper node(String name) {
    return new NodeWrapper(name);
  }

  public static DeviceTaintRuleWrapper deviceTaintRule(String name) {
    return new DeviceTaintRuleWrapper(name);
  }

  /** Alternating key, value strings as an ordered map; odd lengths are a test bug. */
  static java.util.Map<String, String> pairs(String... kv) {
    if (kv.length % 2 != 0) {
      throw new IllegalArgumentException("key/value pairs expected, got " + kv.length + " strings");
    }
    java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return m;
  }
}
