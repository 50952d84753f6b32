package io.jdra.allocator;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.CounterBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSet;
import io.fabric8.kubernetes.api.model.resource.v1.CounterSetBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumptionBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.jdra.testing.objects.Make;
import io.jdra.testing.objects.Requests;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** Small builders for allocator tests: terse names, upstream-like defaults. */
public final class Fixtures {
  static final String DRIVER = "driver.example.com";
  static final String NODE = "node-1";
  static final String CLASS = "gpu";

  private Fixtures() {}

  static Node node(String name, String... labels) {
    return Make.node(name).labels(labels).obj();
  }

  static DeviceClass deviceClass(String name, String... selectors) {
    return Make.deviceClass(name).selectors(selectors).obj();
  }

  static List<DeviceSelector> selectors(String... exprs) {
    return Requests.selectors(exprs);
  }

  /** A node-local slice of a one-slice pool named after the node. */
  static ResourceSlice slice(String name, Device... devices) {
    return slice(name, NODE, DRIVER, NODE, 1, 1, devices);
  }

  static ResourceSlice slice(
      String name, String node, String driver, String pool, long gen, long count, Device... devs) {
    return Make.slice(name, node, driver).pool(pool, gen, count).devices(devs).obj();
  }

  static ResourceSlice withSelector(ResourceSlice s, NodeSelector sel) {
    s.getSpec().setNodeName(null);
    s.getSpec().setAllNodes(null);
    s.getSpec().setNodeSelector(sel);
    return s;
  }

  static NodeSelector labelSelector(String key, String... values) {
    return new NodeSelectorBuilder()
        .addNewNodeSelectorTerm()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator("In")
        .withValues(values)
        .endMatchExpression()
        .endNodeSelectorTerm()
        .build();
  }

  static ResourceSlice counterSlice(String name, String pool, CounterSet... sets) {
    ResourceSlice s = slice(name, null, DRIVER, pool, 1, 2);
    s.getSpec().setAllNodes(null);
    s.getSpec().setDevices(null);
    s.getSpec().setSharedCounters(Arrays.asList(sets));
    return s;
  }

  static CounterSet counterSet(String name, String... counters) {
    CounterSetBuilder b = new CounterSetBuilder().withName(name);
    for (int i = 0; i + 1 < counters.length; i += 2) {
      b.addToCounters(
          counters[i], new CounterBuilder().withValue(new Quantity(counters[i + 1])).build());
    }
    return b.build();
  }

  static Device consumes(Device d, String set, String... counters) {
    DeviceCounterConsumptionBuilder b = new DeviceCounterConsumptionBuilder().withCounterSet(set);
    for (int i = 0; i + 1 < counters.length; i += 2) {
      b.addToCounters(
          counters[i], new CounterBuilder().withValue(new Quantity(counters[i + 1])).build());
    }
    List<io.fabric8.kubernetes.api.model.resource.v1.DeviceCounterConsumption> l =
        d.getConsumesCounters() == null
            ? new ArrayList<>()
            : new ArrayList<>(d.getConsumesCounters());
    l.add(b.build());
    d.setConsumesCounters(l);
    return d;
  }

  /**
   * A device; attrs alternate name, value (String, Long/Integer, Boolean, List or DeviceAttribute).
   */
  static Device device(String name, Object... attrs) {
    Map<String, DeviceAttribute> a = new LinkedHashMap<>();
    for (int i = 0; i + 1 < attrs.length; i += 2) {
      a.put((String) attrs[i], attr(attrs[i + 1]));
    }
    return new DeviceBuilder().withName(name).withAttributes(a).build();
  }

  @SuppressWarnings("unchecked")
  static DeviceAttribute attr(Object v) {
    if (v instanceof DeviceAttribute given) {
      return given;
    }
    DeviceAttribute a = new DeviceAttribute();
    if (v instanceof String s) {
      a.setString(s);
    } else if (v instanceof Integer i) {
      a.setInt(i.longValue());
    } else if (v instanceof Long l) {
      a.setInt(l);
    } else if (v instanceof Boolean b) {
      a.setBool(b);
    } else if (v instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof String) {
      a.setStrings((List<String>) l);
    } else if (v instanceof List<?> l) {
      List<Long> ints = new ArrayList<>();
      for (Object o : l) {
        ints.add(((Number) o).longValue());
      }
      a.setInts(ints);
    }
    return a;
  }

  static Device capacity(Device d, String name, String value) {
    Map<String, DeviceCapacity> c =
        d.getCapacity() == null ? new LinkedHashMap<>() : new LinkedHashMap<>(d.getCapacity());
    c.put(name, new DeviceCapacity(null, new Quantity(value)));
    d.setCapacity(c);
    return d;
  }

  static Device taint(Device d, String key, String value, String effect) {
    List<DeviceTaint> t =
        d.getTaints() == null ? new ArrayList<>() : new ArrayList<>(d.getTaints());
    t.add(new DeviceTaint(effect, key, null, value));
    d.setTaints(t);
    return d;
  }

  static DeviceRequest request(String name, long count, String... selectors) {
    return request(name, CLASS, count, selectors);
  }

  static DeviceRequest request(String name, String cls, long count, String... selectors) {
    return Requests.exactly(name, cls, count, selectors);
  }

  static DeviceRequest all(String name, String... selectors) {
    DeviceRequest r = request(name, 0, selectors);
    r.getExactly().setAllocationMode("All");
    r.getExactly().setCount(null);
    return r;
  }

  static DeviceRequest edit(DeviceRequest r, UnaryOperator<ExactDeviceRequest> f) {
    r.setExactly(f.apply(r.getExactly()));
    return r;
  }

  static DeviceRequest tolerate(DeviceRequest r, DeviceToleration t) {
    r.getExactly().setTolerations(new ArrayList<>(List.of(t)));
    return r;
  }

  static DeviceRequest firstAvailable(String name, DeviceSubRequest... subs) {
    return Requests.firstAvailable(name, subs);
  }

  static DeviceSubRequest sub(String name, long count, String... selectors) {
    return Requests.sub(name, CLASS, count, selectors);
  }

  static ResourceClaim claim(String name, DeviceRequest... requests) {
    return Make.claim(name).namespace("default").requests(requests).obj();
  }

  static ResourceClaim constrain(ResourceClaim c, DeviceConstraint... cs) {
    c.getSpec().getDevices().setConstraints(new ArrayList<>(Arrays.asList(cs)));
    return c;
  }

  static DeviceConstraint match(String attr, String... requests) {
    return new DeviceConstraintBuilder()
        .withMatchAttribute(attr)
        .withRequests(requests.length == 0 ? null : Arrays.asList(requests))
        .build();
  }

  static DeviceConstraint distinct(String attr, String... requests) {
    return new DeviceConstraintBuilder()
        .withDistinctAttribute(attr)
        .withRequests(requests.length == 0 ? null : Arrays.asList(requests))
        .build();
  }

  /** "request=driver/pool/device" per result, for compact assertions. */
  static List<String> picks(AllocationResult r) {
    List<String> out = new ArrayList<>();
    for (DeviceRequestAllocationResult d : r.getDevices().getResults()) {
      out.add(d.getRequest() + "=" + d.getPool() + "/" + d.getDevice());
    }
    return out;
  }
}
