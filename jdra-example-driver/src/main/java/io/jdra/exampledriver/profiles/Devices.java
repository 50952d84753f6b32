package io.jdra.exampledriver.profiles;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicyRange;
import io.fabric8.kubernetes.api.model.resource.v1.Counter;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/** Small builders for the fabric8 device model, shared by the profiles. */
final class Devices {
  private Devices() {}

  static DeviceAttribute intAttr(long v) {
    DeviceAttribute a = new DeviceAttribute();
    a.setInt(v);
    return a;
  }

  static DeviceAttribute stringAttr(String v) {
    DeviceAttribute a = new DeviceAttribute();
    a.setString(v);
    return a;
  }

  static DeviceAttribute versionAttr(String v) {
    DeviceAttribute a = new DeviceAttribute();
    a.setVersion(v);
    return a;
  }

  static DeviceAttribute boolAttr(boolean v) {
    DeviceAttribute a = new DeviceAttribute();
    a.setBool(v);
    return a;
  }

  static DeviceCapacity capacity(Quantity value) {
    DeviceCapacity c = new DeviceCapacity();
    c.setValue(value);
    return c;
  }

  static DeviceCapacity capacity(
      Quantity value, Quantity dflt, Quantity min, Quantity step, Quantity max) {
    DeviceCapacity c = capacity(value);
    CapacityRequestPolicy p = new CapacityRequestPolicy();
    p.setDefault(dflt);
    CapacityRequestPolicyRange r = new CapacityRequestPolicyRange();
    r.setMin(min);
    r.setStep(step);
    r.setMax(max);
    p.setValidRange(r);
    c.setRequestPolicy(p);
    return c;
  }

  static Counter counter(Quantity value) {
    Counter c = new Counter();
    c.setValue(value);
    return c;
  }

  static Map<String, Counter> counters(Quantity memory, Quantity compute) {
    return Map.of("memory", counter(memory), "compute", counter(compute));
  }

  /**
   * {@code count} UUIDs derived from the node name, so a node keeps its device identities across
   * restarts: the seed is the same 31-based string hash as upstream's, but the generator is Java's,
   * so the UUIDs differ from the Go driver's (they are random-looking identifiers either way).
   */
  static List<String> uuids(String seed, String prefix, int count) {
    long h = 0;
    for (int i = 0; i < seed.length(); ) {
      int cp = seed.codePointAt(i);
      h = 31 * h + cp;
      i += Character.charCount(cp);
    }
    Random random = new Random(h);
    List<String> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[] b = new byte[16];
      random.nextBytes(b);
      ByteBuffer bb = ByteBuffer.wrap(b);
      out.add(prefix + "-" + new UUID(bb.getLong(), bb.getLong()));
    }
    return out;
  }
}
