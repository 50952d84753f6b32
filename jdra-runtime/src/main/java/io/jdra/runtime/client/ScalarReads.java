package io.jdra.runtime.client;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodResourceClaim;
import io.fabric8.kubernetes.api.model.PodResourceClaimStatus;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.deser.SettableBeanProperty;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.bean.BeanDeserializer;
import tools.jackson.databind.deser.jdk.NumberDeserializers;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.module.SimpleModule;

/**
 * A Jackson module that reads the scalar fields (strings, whole numbers, booleans) of the model
 * classes every watch event and answer of the steady state carries (object metadata and its
 * managedFields entries and owner references, the pod's spec, containers, tolerations and status,
 * the claim's requests, results and consumers) by direct calls of their setters.
 *
 * <p>Jackson's bean deserializer sets each property through its property object, fabric8's wrapper
 * around it, the value's deserializer and a method handle held in a field, which the JIT never
 * inlines ({@code Invokers.checkCustomized}, {@code invokeExact_MT}, {@code allocateInstance} for
 * the constructor): with the other Jackson frames over half of the informer threads' CPU in the
 * steady-state bench. Here the bean is created with its constructor and every field is read as the
 * bean deserializer reads it: a scalar field whose value has the token its own deserializer reads
 * without conversion (a string for a String, an int or long for a Long, {@code true} or {@code
 * false} for a Boolean; Integer fields are left alone: fabric8 gives them a deserializer of its
 * own) is set directly with that value; any other field or value (objects, lists, maps, nulls,
 * numbers given as strings, names that are no property, ignored names) goes to the bean
 * deserializer's own property or unknown-name handling, one field at a time. A field is read
 * directly only where the bean deserializer in use has that property with Jackson's plain String,
 * Long or Boolean deserializer (so a copy that ignores a name keeps ignoring it). Beans that are
 * not plain ({@link PlainBeans}) and reads with an active view go to the bean deserializer.
 */
final class ScalarReads extends SimpleModule {
  /** The classes read here and their scalar fields, by JSON name. */
  static final Map<Class<?>, Reader<?>> READERS = readers();

  ScalarReads() {
    super("jdra-scalar-reads");
    setDeserializerModifier(
        new ValueDeserializerModifier() {
          @Override
          public ValueDeserializer<?> modifyDeserializer(
              DeserializationConfig config,
              BeanDescription.Supplier beanDesc,
              ValueDeserializer<?> deserializer) {
            Reader<?> reader = READERS.get(beanDesc.getBeanClass());
            return reader != null && deserializer.getClass() == BeanDeserializer.class
                ? new Direct(deserializer, reader)
                : deserializer;
          }
        });
  }

  /** The token kinds read directly, each with the deserializer class that reads it plainly. */
  enum Kind {
    STRING(StringDeserializer.class) {
      @Override
      Object read(JsonToken t, JsonParser p) {
        return t == JsonToken.VALUE_STRING ? p.getString() : null;
      }
    },
    LONG(NumberDeserializers.LongDeserializer.class) {
      @Override
      Object read(JsonToken t, JsonParser p) {
        if (t != JsonToken.VALUE_NUMBER_INT) {
          return null;
        }
        JsonParser.NumberType n = p.getNumberType();
        // A BigInteger value fails in the deserializer: left to it.
        return n == JsonParser.NumberType.INT || n == JsonParser.NumberType.LONG
            ? p.getLongValue()
            : null;
      }
    },
    BOOLEAN(NumberDeserializers.BooleanDeserializer.class) {
      @Override
      Object read(JsonToken t, JsonParser p) {
        return t == JsonToken.VALUE_TRUE ? Boolean.TRUE : t == JsonToken.VALUE_FALSE ? false : null;
      }
    };

    private final Class<?> deserializer;

    Kind(Class<?> deserializer) {
      this.deserializer = deserializer;
    }

    /** The value of the token {@code p} is on, or null if the deserializer must read it. */
    abstract Object read(JsonToken t, JsonParser p);
  }

  /** One scalar field: its kind and setter. */
  record Field<T>(Kind kind, BiConsumer<T, Object> setter) {}

  /** A class's constructor and scalar fields. */
  static final class Reader<T> {
    final Supplier<T> create;
    final Map<String, Field<T>> fields = new HashMap<>();

    Reader(Supplier<T> create) {
      this.create = create;
    }

    Reader<T> string(String name, BiConsumer<T, String> setter) {
      return field(name, Kind.STRING, setter);
    }

    Reader<T> longs(String name, BiConsumer<T, Long> setter) {
      return field(name, Kind.LONG, setter);
    }

    Reader<T> bool(String name, BiConsumer<T, Boolean> setter) {
      return field(name, Kind.BOOLEAN, setter);
    }

    @SuppressWarnings("unchecked")
    private <V> Reader<T> field(String name, Kind kind, BiConsumer<T, V> setter) {
      fields.put(name, new Field<>(kind, (bean, v) -> setter.accept(bean, (V) v)));
      return this;
    }
  }

  private static Map<Class<?>, Reader<?>> readers() {
    Map<Class<?>, Reader<?>> m = new HashMap<>();
    m.put(
        ObjectMeta.class,
        new Reader<>(ObjectMeta::new)
            .string("creationTimestamp", ObjectMeta::setCreationTimestamp)
            .longs("deletionGracePeriodSeconds", ObjectMeta::setDeletionGracePeriodSeconds)
            .string("deletionTimestamp", ObjectMeta::setDeletionTimestamp)
            .string("generateName", ObjectMeta::setGenerateName)
            .longs("generation", ObjectMeta::setGeneration)
            .string("name", ObjectMeta::setName)
            .string("namespace", ObjectMeta::setNamespace)
            .string("resourceVersion", ObjectMeta::setResourceVersion)
            .string("selfLink", ObjectMeta::setSelfLink)
            .string("uid", ObjectMeta::setUid));
    m.put(
        ManagedFieldsEntry.class,
        new Reader<>(ManagedFieldsEntry::new)
            .string("apiVersion", ManagedFieldsEntry::setApiVersion)
            .string("fieldsType", ManagedFieldsEntry::setFieldsType)
            .string("manager", ManagedFieldsEntry::setManager)
            .string("operation", ManagedFieldsEntry::setOperation)
            .string("subresource", ManagedFieldsEntry::setSubresource)
            .string("time", ManagedFieldsEntry::setTime));
    m.put(
        OwnerReference.class,
        new Reader<>(OwnerReference::new)
            .string("apiVersion", OwnerReference::setApiVersion)
            .bool("blockOwnerDeletion", OwnerReference::setBlockOwnerDeletion)
            .bool("controller", OwnerReference::setController)
            .string("kind", OwnerReference::setKind)
            .string("name", OwnerReference::setName)
            .string("uid", OwnerReference::setUid));
    m.put(
        PodSpec.class,
        new Reader<>(PodSpec::new)
            .longs("activeDeadlineSeconds", PodSpec::setActiveDeadlineSeconds)
            .bool("automountServiceAccountToken", PodSpec::setAutomountServiceAccountToken)
            .string("dnsPolicy", PodSpec::setDnsPolicy)
            .bool("enableServiceLinks", PodSpec::setEnableServiceLinks)
            .bool("hostIPC", PodSpec::setHostIPC)
            .bool("hostNetwork", PodSpec::setHostNetwork)
            .bool("hostPID", PodSpec::setHostPID)
            .bool("hostUsers", PodSpec::setHostUsers)
            .string("hostname", PodSpec::setHostname)
            .string("nodeName", PodSpec::setNodeName)
            .string("preemptionPolicy", PodSpec::setPreemptionPolicy)
            .string("priorityClassName", PodSpec::setPriorityClassName)
            .string("restartPolicy", PodSpec::setRestartPolicy)
            .string("runtimeClassName", PodSpec::setRuntimeClassName)
            .string("schedulerName", PodSpec::setSchedulerName)
            .string("serviceAccount", PodSpec::setServiceAccount)
            .string("serviceAccountName", PodSpec::setServiceAccountName)
            .bool("shareProcessNamespace", PodSpec::setShareProcessNamespace)
            .string("subdomain", PodSpec::setSubdomain)
            .longs("terminationGracePeriodSeconds", PodSpec::setTerminationGracePeriodSeconds));
    m.put(
        Container.class,
        new Reader<>(Container::new)
            .string("image", Container::setImage)
            .string("imagePullPolicy", Container::setImagePullPolicy)
            .string("name", Container::setName)
            .string("restartPolicy", Container::setRestartPolicy)
            .bool("stdin", Container::setStdin)
            .bool("stdinOnce", Container::setStdinOnce)
            .string("terminationMessagePath", Container::setTerminationMessagePath)
            .string("terminationMessagePolicy", Container::setTerminationMessagePolicy)
            .bool("tty", Container::setTty)
            .string("workingDir", Container::setWorkingDir));
    m.put(
        Toleration.class,
        new Reader<>(Toleration::new)
            .string("effect", Toleration::setEffect)
            .string("key", Toleration::setKey)
            .string("operator", Toleration::setOperator)
            .longs("tolerationSeconds", Toleration::setTolerationSeconds)
            .string("value", Toleration::setValue));
    m.put(
        PodResourceClaim.class,
        new Reader<>(PodResourceClaim::new)
            .string("name", PodResourceClaim::setName)
            .string("resourceClaimName", PodResourceClaim::setResourceClaimName)
            .string("resourceClaimTemplateName", PodResourceClaim::setResourceClaimTemplateName));
    m.put(
        io.fabric8.kubernetes.api.model.ResourceClaim.class,
        new Reader<>(io.fabric8.kubernetes.api.model.ResourceClaim::new)
            .string("name", io.fabric8.kubernetes.api.model.ResourceClaim::setName)
            .string("request", io.fabric8.kubernetes.api.model.ResourceClaim::setRequest));
    m.put(
        PodStatus.class,
        new Reader<>(PodStatus::new)
            .string("hostIP", PodStatus::setHostIP)
            .string("message", PodStatus::setMessage)
            .string("nominatedNodeName", PodStatus::setNominatedNodeName)
            .longs("observedGeneration", PodStatus::setObservedGeneration)
            .string("phase", PodStatus::setPhase)
            .string("podIP", PodStatus::setPodIP)
            .string("qosClass", PodStatus::setQosClass)
            .string("reason", PodStatus::setReason)
            .string("startTime", PodStatus::setStartTime));
    m.put(
        PodCondition.class,
        new Reader<>(PodCondition::new)
            .string("lastProbeTime", PodCondition::setLastProbeTime)
            .string("lastTransitionTime", PodCondition::setLastTransitionTime)
            .string("message", PodCondition::setMessage)
            .longs("observedGeneration", PodCondition::setObservedGeneration)
            .string("reason", PodCondition::setReason)
            .string("status", PodCondition::setStatus)
            .string("type", PodCondition::setType));
    m.put(
        PodResourceClaimStatus.class,
        new Reader<>(PodResourceClaimStatus::new)
            .string("name", PodResourceClaimStatus::setName)
            .string("resourceClaimName", PodResourceClaimStatus::setResourceClaimName));
    m.put(
        NodeSelectorRequirement.class,
        new Reader<>(NodeSelectorRequirement::new)
            .string("key", NodeSelectorRequirement::setKey)
            .string("operator", NodeSelectorRequirement::setOperator));
    m.put(
        ExactDeviceRequest.class,
        new Reader<>(ExactDeviceRequest::new)
            .bool("adminAccess", ExactDeviceRequest::setAdminAccess)
            .string("allocationMode", ExactDeviceRequest::setAllocationMode)
            .longs("count", ExactDeviceRequest::setCount)
            .string("deviceClassName", ExactDeviceRequest::setDeviceClassName));
    m.put(
        DeviceRequest.class,
        new Reader<>(DeviceRequest::new).string("name", DeviceRequest::setName));
    m.put(
        DeviceRequestAllocationResult.class,
        new Reader<>(DeviceRequestAllocationResult::new)
            .bool("adminAccess", DeviceRequestAllocationResult::setAdminAccess)
            .string("device", DeviceRequestAllocationResult::setDevice)
            .string("driver", DeviceRequestAllocationResult::setDriver)
            .string("pool", DeviceRequestAllocationResult::setPool)
            .string("request", DeviceRequestAllocationResult::setRequest)
            .string("shareID", DeviceRequestAllocationResult::setShareID));
    m.put(
        ResourceClaimConsumerReference.class,
        new Reader<>(ResourceClaimConsumerReference::new)
            .string("apiGroup", ResourceClaimConsumerReference::setApiGroup)
            .string("name", ResourceClaimConsumerReference::setName)
            .string("resource", ResourceClaimConsumerReference::setResource)
            .string("uid", ResourceClaimConsumerReference::setUid));
    m.put(
        AllocationResult.class,
        new Reader<>(AllocationResult::new)
            .string("allocationTimestamp", AllocationResult::setAllocationTimestamp));
    return Map.copyOf(m);
  }

  /** A bean deserializer of a class in {@link #READERS}, with its scalar fields read here. */
  static final class Direct extends DelegatingDeserializer {
    private final Reader<?> reader;

    /** What this delegatee lets {@link #reader} read; set on first use (null: read nothing). */
    private volatile Access<?> access;

    private volatile boolean decided;

    Direct(ValueDeserializer<?> fabric8, Reader<?> reader) {
      super(fabric8);
      this.reader = reader;
    }

    @Override
    protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> newDelegatee) {
      return newDelegatee.getClass() == BeanDeserializer.class
          ? new Direct(newDelegatee, reader)
          : newDelegatee;
    }

    @Override
    public Object deserialize(JsonParser p, DeserializationContext ctxt) {
      Access<?> a = access();
      if (a == null || !p.isExpectedStartObjectToken() || ctxt.getActiveView() != null) {
        return _delegatee.deserialize(p, ctxt);
      }
      return a.read(p, ctxt);
    }

    /** The names read directly (for tests). */
    java.util.Set<String> directNames() {
      Access<?> a = access();
      return a == null ? java.util.Set.of() : a.fields.keySet();
    }

    private Access<?> access() {
      if (!decided) {
        access = Access.of((BeanDeserializer) _delegatee, reader);
        decided = true;
      }
      return access;
    }
  }

  /** A copy of a bean deserializer, to use its property lookup and unknown-name handling. */
  private static final class Access<T> extends BeanDeserializer {
    private final Supplier<T> create;
    private final Map<String, Field<T>> fields;

    private Access(BeanDeserializer d, Supplier<T> create, Map<String, Field<T>> fields) {
      super(d);
      this.create = create;
      this.fields = fields;
    }

    /**
     * An access to {@code d} for {@code reader}'s fields that {@code d} reads with Jackson's plain
     * deserializer of their kind; null if {@code d} is no plain bean's.
     */
    static <T> Access<T> of(BeanDeserializer d, Reader<T> reader) {
      if (!PlainBeans.isPlain(d)) {
        return null;
      }
      Access<T> probe = new Access<>(d, reader.create, Map.of());
      Map<String, Field<T>> plain = new HashMap<>();
      reader.fields.forEach((name, field) -> {
        SettableBeanProperty prop = probe.property(name);
        if (prop != null
            && prop.getName().equals(name)
            && !prop.hasValueTypeDeserializer()
            && prop.getValueDeserializer() != null
            && prop.getValueDeserializer().getClass() == field.kind().deserializer) {
          plain.put(name, field);
        }
      });
      return new Access<>(d, reader.create, plain);
    }

    /**
     * What the bean deserializer's read of an object does (create the bean, then each field in
     * stream order), with the scalar fields set here; {@code p} is on the object's start.
     */
    T read(JsonParser p, DeserializationContext ctxt) {
      T bean = create.get();
      String name = p.nextName();
      if (name == null) {
        return bean; // an empty object: Jackson does not assign it to the parser either
      }
      p.assignCurrentValue(bean);
      for (; name != null; name = p.nextName()) {
        JsonToken t = p.nextToken();
        Field<T> f = fields.get(name);
        Object value = f == null ? null : f.kind().read(t, p);
        if (value != null) {
          f.setter().accept(bean, value);
        } else {
          readField(p, ctxt, bean, name);
        }
      }
      return bean;
    }

    /** The bean deserializer's handling of one field, {@code p} on its value. */
    private void readField(JsonParser p, DeserializationContext ctxt, Object bean, String name) {
      SettableBeanProperty prop = property(name);
      if (prop == null) {
        handleUnknownVanilla(p, ctxt, bean, name);
        return;
      }
      try {
        prop.deserializeAndSet(p, ctxt, bean);
      } catch (Exception e) {
        throw wrapAndThrow(e, bean, prop.getName(), ctxt);
      }
    }

    /** The property the bean deserializer's name matcher finds for {@code name}, or null. */
    private SettableBeanProperty property(String name) {
      int i = _propNameMatcher.matchName(name);
      return i >= 0 ? _propsByIndex[i] : null;
    }
  }
}
