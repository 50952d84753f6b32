package io.jdra.exampledriver.profiles;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequestPolicy;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.jdra.kubeletplugin.cdi.CdiSpec.ContainerEdits;
import io.jdra.kubeletplugin.resourceslice.DriverResources;
import io.jdra.kubeletplugin.resourceslice.Pool;
import io.jdra.kubeletplugin.resourceslice.Slice;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Simulated NICs (upstream internal/profiles/net): {@code nic-<i>}, always shareable, with 100
 * virtual functions (one per allocation) and 100G ingress and egress bandwidth handed out in 1M
 * steps (default 1G, at least 100M). Config: {@code net.resource.example.com/v1alpha1} {@code
 * NetConfig} with {@code bwBurst}.
 */
public final class NetProfile implements Profile {
  public static final String NAME = "net";
  public static final String API_VERSION = "net.resource.example.com/v1alpha1";
  public static final String KIND = "NetConfig";

  private final String nodeName;
  private final int numNics;

  public NetProfile(String nodeName, int numNics) {
    this.nodeName = nodeName;
    this.numNics = numNics;
  }

  /**
   * @param ingressBurst maximum ingress burst in bits (0: none) @param egressBurst same, egress
   */
  public record NetConfig(long ingressBurst, long egressBurst) {
    void validate() {
      check(ingressBurst, "ingressBurst");
      check(egressBurst, "egressBurst");
    }

    private static void check(long burst, String field) {
      if (burst > 0 && burst / 8 >= 0xFFFFFFFFL) {
        throw new IllegalArgumentException("invalid " + field + ": burst cannot be more than 4GB");
      }
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public DriverResources enumerateDevices() {
    List<String> uuids = Devices.uuids(nodeName, "net", numNics);
    List<Device> devices = new ArrayList<>();
    for (int i = 0; i < numNics; i++) {
      Device d = new Device();
      d.setName("nic-" + i);
      d.setAllowMultipleAllocations(true);
      Map<String, DeviceAttribute> attrs = new TreeMap<>();
      attrs.put("index", Devices.intAttr(i));
      attrs.put("uuid", Devices.stringAttr(uuids.get(i)));
      attrs.put("model", Devices.stringAttr("LATEST-NET-MODEL"));
      attrs.put("driverVersion", Devices.versionAttr("1.0.0"));
      d.setAttributes(attrs);
      Map<String, DeviceCapacity> cap = new TreeMap<>();
      DeviceCapacity vfs = Devices.capacity(new Quantity("100"));
      CapacityRequestPolicy one = new CapacityRequestPolicy();
      one.setDefault(new Quantity("1"));
      one.setValidValues(List.of(new Quantity("1")));
      vfs.setRequestPolicy(one);
      cap.put("vfs", vfs);
      cap.put("ingressBandwidth", bandwidth());
      cap.put("egressBandwidth", bandwidth());
      d.setCapacity(cap);
      devices.add(d);
    }
    return DriverResources.ofNodePool(nodeName, Pool.of(List.of(Slice.of(devices))));
  }

  private static DeviceCapacity bandwidth() {
    return Devices.capacity(
        new Quantity("100G"),
        new Quantity("1G"),
        new Quantity("100M"),
        new Quantity("1M"),
        new Quantity("100G"));
  }

  @Override
  public Object decodeConfig(Map<String, Object> parameters) {
    Profiles.checkKind(parameters, API_VERSION, KIND);
    Object bw = parameters.get("bwBurst");
    if (bw == null) {
      return new NetConfig(0, 0);
    }
    Map<String, Object> m = Json.object(bw, "bwBurst");
    return new NetConfig(
        Json.unsigned(m.get("ingressBurst"), "bwBurst.ingressBurst"),
        Json.unsigned(m.get("egressBurst"), "bwBurst.egressBurst"));
  }

  @Override
  public Map<String, ContainerEdits> applyConfig(
      Object config, List<DeviceRequestAllocationResult> results) {
    NetConfig c = config == null ? new NetConfig(0, 0) : (NetConfig) config;
    try {
      c.validate();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("error validating Net config: " + e.getMessage(), e);
    }
    Map<String, ContainerEdits> edits = new LinkedHashMap<>();
    for (DeviceRequestAllocationResult r : results) {
      String id = r.getDevice().substring(4);
      List<String> env = new ArrayList<>();
      if (c.ingressBurst() > 0) {
        env.add("NET_DEVICE_" + id + "_INGRESS_BURST=" + c.ingressBurst());
      }
      if (c.egressBurst() > 0) {
        env.add("NET_DEVICE_" + id + "_EGRESS_BURST=" + c.egressBurst());
      }
      Map<String, Quantity> consumed =
          r.getConsumedCapacity() == null ? Map.of() : r.getConsumedCapacity();
      if (consumed.containsKey("ingressBandwidth")) {
        env.add("NET_DEVICE_" + id + "_INGRESS_RATE=" + plain(consumed.get("ingressBandwidth")));
      }
      if (consumed.containsKey("egressBandwidth")) {
        env.add("NET_DEVICE_" + id + "_EGRESS_RATE=" + plain(consumed.get("egressBandwidth")));
      }
      edits.put(Profile.cdiDeviceId(r.getDevice(), r.getShareID()), ContainerEdits.env(env));
    }
    return edits;
  }

  /** The quantity as a plain integer, as Go's %d of an inf.Dec prints it. */
  private static String plain(Quantity q) {
    BigDecimal v = Quantity.getAmountInBytes(q);
    return v.stripTrailingZeros().toPlainString();
  }
}
