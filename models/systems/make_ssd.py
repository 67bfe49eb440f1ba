#!/usr/bin/env python3
"""Writes the SystemStructure.ssd of every system case in this folder
(README.md): run `python3 make_ssd.py` here after changing a case. The
files are committed; CMake only packs them. The style is OMSimulator's
(ssd:/ssc:/ssv: prefixes, parameter connectors, ssd:Units with base units),
except algebraic_loop, written with default namespaces as other tools do.
"""
import os
ROOT = os.path.dirname(os.path.abspath(__file__))
NS = ('xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription"\n'
      '  xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon"\n'
      '  xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues"')

def conn(name, kind, typ="Real", unit=None):
    # typ may carry attributes of its own (SSP 2.0: 'Clock intervalVariability="triggered"').
    u = f' unit="{unit}"' if unit else ""
    return f'          <ssd:Connector name="{name}" kind="{kind}"><ssc:{typ}{u}/></ssd:Connector>\n'

def params(values):
    if not values:
        return ""
    s = ('        <ssd:ParameterBindings>\n          <ssd:ParameterBinding>\n            <ssd:ParameterValues>\n'
         '              <ssv:ParameterSet version="1.0" name="parameters">\n                <ssv:Parameters>\n')
    for n, v, unit in values:
        u = f' unit="{unit}"' if unit else ""
        s += f'                  <ssv:Parameter name="{n}"><ssv:Real value="{v}"{u}/></ssv:Parameter>\n'
    s += ('                </ssv:Parameters>\n              </ssv:ParameterSet>\n            </ssd:ParameterValues>\n'
          '          </ssd:ParameterBinding>\n        </ssd:ParameterBindings>\n')
    return s

def component(name, fmu, connectors, values=()):
    s = f'      <ssd:Component name="{name}" type="application/x-fmu-sharedlibrary" source="resources/{fmu}.fmu">\n'
    s += '        <ssd:Connectors>\n'
    for c in connectors:
        s += conn(*c).replace("          <ssd:Connector", "          <ssd:Connector")
    s += '        </ssd:Connectors>\n'
    s += params(values)
    s += '      </ssd:Component>\n'
    return s

def connection(a, ac, b, bc, lt=None):
    if lt:
        return (f'      <ssd:Connection startElement="{a}" startConnector="{ac}" endElement="{b}" endConnector="{bc}">\n'
                f'        <ssc:LinearTransformation factor="{lt[0]}" offset="{lt[1]}"/>\n      </ssd:Connection>\n')
    return f'      <ssd:Connection startElement="{a}" startConnector="{ac}" endElement="{b}" endConnector="{bc}"/>\n'

def couplings(cs):
    s = ('    <ssd:Annotations>\n      <ssc:Annotation type="org.lsdae.couplings">\n'
         '        <lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0">\n')
    for name, ports in cs:
        s += f'          <lsdae:Coupling name="{name}">\n'
        for el, pot, flow in ports:
            s += f'            <lsdae:Port element="{el}" potential="{pot}" flow="{flow}"/>\n'
        s += '          </lsdae:Coupling>\n'
    s += '        </lsdae:Couplings>\n      </ssc:Annotation>\n    </ssd:Annotations>\n'
    return s

UNITS = {"N": [("kg", 1), ("m", 1), ("s", -2)], "m/s": [("m", 1), ("s", -1)], "kg": [("kg", 1)],
         "rad/s": [("rad", 1), ("s", -1)], "A": [("A", 1)], "V": [("kg", 1), ("m", 2), ("s", -3), ("A", -1)]}

def ssd(case, title, system, comps, conns=(), cps=(), stop=None, comment="", version="1.0"):
    s = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if comment:
        s += "<!-- " + comment.strip().replace("\n", "\n     ") + " -->\n"
    s += f'<ssd:SystemStructureDescription {NS}\n  name="{title}" version="{version}">\n'
    s += f'  <ssd:System name="{system}">\n    <ssd:Elements>\n'
    s += "".join(comps)
    s += '    </ssd:Elements>\n'
    if conns:
        s += '    <ssd:Connections>\n' + "".join(conns) + '    </ssd:Connections>\n'
    if cps:
        s += couplings(cps)
    s += '  </ssd:System>\n'
    used = sorted({u for c in comps for u in UNITS if ('unit="%s"' % u) in c})
    if used:
        s += '  <ssd:Units>\n'
        for u in used:
            base = " ".join('%s="%s"' % kv for kv in UNITS[u])
            s += f'    <ssc:Unit name="{u}"><ssc:BaseUnit {base}/></ssc:Unit>\n'
        s += '  </ssd:Units>\n'
    if stop is not None:
        s += f'  <ssd:DefaultExperiment startTime="0" stopTime="{stop}"/>\n'
    s += '</ssd:SystemStructureDescription>\n'
    os.makedirs(os.path.join(ROOT, case), exist_ok=True)
    with open(os.path.join(ROOT, case, "SystemStructure.ssd"), "w") as f:
        f.write(s)

MASS = [("F", "input", "Real", "N"), ("v", "output", "Real", "m/s"),
        ("m", "parameter", "Real", "kg"), ("F0", "parameter", "Real", "N"), ("omega", "parameter", "Real", "rad/s")]
def masses(case, fmu2):
    ssd(case, case, "root",
        [component("mass1", "SlidingMass", MASS, [("m", "1", "kg"), ("F0", "1", "N"), ("omega", "2", "rad/s")]),
         component("mass2", fmu2, MASS, [("m", "2", "kg"), ("F0", "0", "N"), ("omega", "2", "rad/s")])],
        cps=[("rod", [("mass1", "v", "F"), ("mass2", "v", "F")])], stop=10,
        comment=f"""Case 1 (seed 003): two masses in two FMUs, rigidly coupled by lsdae's coupling
annotation: v1 = v2 (potentials), F1 + F2 = 0 (flows into the masses), so mass2.F = Fz and
mass1.F = -Fz of CoupledMasses (m1 = 1, m2 = 2, F0 = 1, omega = 2). Index 2.""" +
        ("" if fmu2 == "SlidingMass" else "\nmass2 is the FMI 2.0 variant of the same model."))
masses("coupled_masses", "SlidingMass")
masses("coupled_masses_fmi2", "SlidingMass_fmi2")

def line(n, sections):
    m = n // sections
    comps = []
    for j in range(1, sections + 1):
        kind = "first" if j == 1 else "last" if j == sections else "middle"
        cs = []
        if j > 1:
            cs += [("a.i", "input", "Real", "A"), ("a.v", "output", "Real", "V")]
        if j < sections:
            cs += [("b.i", "input", "Real", "A"), ("b.v", "output", "Real", "V")]
        else:
            cs += [("v_load", "output", "Real", "V")]
        comps.append(component(f"s{j}", f"TransmissionLineSection_{kind}_{m}", cs))
    cps = [(f"cut{j}", [(f"s{j}", "b.v", "b.i"), (f"s{j+1}", "a.v", "a.i")]) for j in range(1, sections)]
    ssd(f"transmission_line_{n}", f"transmission_line_{n}", "line", comps, cps=cps, stop="4e-06",
        comment=f"""Case 2: TransmissionLine N = {n} cut into {sections} sections of {m} segments (s1 .. s{sections}).
Section j owns the cut node jM (its capacitor and voltage state C[{m}].v, port b); section j+1
reads it through its algebraic v_left (port a). Coupling cut<j>: s<j>.b.v = s<j+1>.a.v,
s<j>.b.i + s<j+1>.a.i = 0. s<j>.C[k].v is the monolithic C[(j-1)*{m}+k].v.""")
line(80, 4)
line(1280, 8)

# Case 3 in the default-namespace style some writers use (no prefixes on SSD elements).
loop = '''<?xml version="1.0" encoding="UTF-8"?>
<!-- Case 3: an algebraic loop through direct feedthrough across two FMUs: first.y1 -> second.u2,
     second.y2 -> first.u1; y1 depends on u1 and y2 on u2 at the same instant. Written with
     default namespaces (no prefixes on SSD elements), as some tools write SSDs. -->
<SystemStructureDescription xmlns="http://ssp-standard.org/SSP1/SystemStructureDescription"
  version="1.0" name="algebraic_loop">
  <System name="loop">
    <Elements>
      <Component name="first" source="resources/LoopFirst.fmu">
        <Connectors>
          <Connector name="u1" kind="input"><Real xmlns="http://ssp-standard.org/SSP1/SystemStructureCommon"/></Connector>
          <Connector name="y1" kind="output"><Real xmlns="http://ssp-standard.org/SSP1/SystemStructureCommon"/></Connector>
        </Connectors>
      </Component>
      <Component name="second" source="resources/LoopSecond.fmu">
        <Connectors>
          <Connector name="u2" kind="input"><Real xmlns="http://ssp-standard.org/SSP1/SystemStructureCommon"/></Connector>
          <Connector name="y2" kind="output"><Real xmlns="http://ssp-standard.org/SSP1/SystemStructureCommon"/></Connector>
        </Connectors>
      </Component>
    </Elements>
    <Connections>
      <Connection startElement="first" startConnector="y1" endElement="second" endConnector="u2"/>
      <Connection startElement="second" startConnector="y2" endElement="first" endConnector="u1"/>
    </Connections>
  </System>
  <DefaultExperiment startTime="0" stopTime="5"/>
</SystemStructureDescription>
'''
os.makedirs(os.path.join(ROOT, "algebraic_loop"), exist_ok=True)
open(os.path.join(ROOT, "algebraic_loop", "SystemStructure.ssd"), "w").write(loop)

CTRL = [("y_m", "input", "Real", "rad/s"), ("u", "output", "Real", "V")]
MOTOR = [("u", "input", "Real", "V"), ("speed", "output", "Real", "rad/s")]
ssd("controlled_motor", "controlled_motor", "drive",
    [component("controller", "PIController", CTRL), component("motor", "DCMotor", MOTOR)],
    [connection("controller", "u", "motor", "u", ("1", "0")), connection("motor", "speed", "controller", "y_m")],
    stop=3, comment="""Case 4: a plain ODE FMU (PI controller: setpoint step = time event, limiter = state
event) drives an LS-DAE FMU (DC motor: load engages at a shaft angle = state event);
the motor's speed is fed back. Reference: ControlledMotor.fmu (both in one FMU).""")

ssd("bad_missing_connector", "bad_missing_connector", "drive",
    [component("controller", "PIController", CTRL), component("motor", "DCMotor", MOTOR)],
    [connection("controller", "u", "motor", "u"), connection("motor", "omega", "controller", "y_m")],
    stop=3, comment="""Bad input: the second connection starts at motor.omega, a connector the motor
does not declare (its speed output is "speed").""")
ssd("bad_unknown_variable", "bad_unknown_variable", "drive",
    [component("controller", "PIController", CTRL),
     component("motor", "DCMotor", MOTOR + [("omega", "output", "Real", "rad/s")])],
    [connection("controller", "u", "motor", "u"), connection("motor", "omega", "controller", "y_m")],
    stop=3, comment="""Bad input: the SSD declares a connector motor.omega, but DCMotor.fmu has no
variable "omega" (its speed output is "speed").""")
ssd("bad_type_mismatch", "bad_type_mismatch", "drive",
    [component("controller", "PIController", CTRL + [("enable", "input", "Boolean", None)]),
     component("motor", "DCMotor", MOTOR)],
    [connection("controller", "u", "motor", "u"), connection("motor", "speed", "controller", "enable")],
    stop=3, comment="""Bad input: motor.speed (Float64) drives controller.enable (Boolean).""")
ssd("bad_unit_mismatch", "bad_unit_mismatch", "drive",
    [component("controller", "PIController", CTRL), component("mass", "SlidingMass", MASS[:2])],
    [connection("mass", "v", "controller", "y_m")],
    stop=3, comment="""Bad input: mass.v (unit m/s) drives controller.y_m (unit rad/s).""")
ssd("bad_driven_twice", "bad_driven_twice", "drive",
    [component("controller", "PIController", CTRL), component("motor1", "DCMotor", MOTOR),
     component("motor2", "DCMotor", MOTOR)],
    [connection("controller", "u", "motor1", "u"), connection("controller", "u", "motor2", "u"),
     connection("motor1", "speed", "controller", "y_m"), connection("motor2", "speed", "controller", "y_m")],
    stop=3, comment="""Bad input: controller.y_m is driven by motor1.speed and by motor2.speed
(one output driving two inputs, controller.u, is fine).""")
ssd("bad_unconnected_input", "bad_unconnected_input", "drive",
    [component("controller", "PIController_no_start", CTRL), component("motor", "DCMotor", MOTOR)],
    [connection("controller", "u", "motor", "u")],
    stop=3, comment="""Bad input: controller.y_m is connected to nothing and PIController_no_start.fmu
gives it no start value, so it has no value at all.""")
SRC = [("F", "input", "Real", "N"), ("v", "output", "Real", "m/s")]
ssd("bad_singular_coupling", "bad_singular_coupling", "sources",
    [component("source1", "SpeedSource", SRC),
     component("source2", "SpeedSource", SRC + [("omega", "parameter", "Real", "rad/s")], [("omega", "3", "rad/s")])],
    cps=[("rod", [("source1", "v", "F"), ("source2", "v", "F")])], stop=1,
    comment="""Bad input: two ideal velocity sources rigidly coupled. The potential row
source1.v - source2.v = 0 contains no unknown (both velocities are functions of time), and
the flows source1.F, source2.F appear in no equation but the flow sum: the composed system
is structurally singular (2 flow unknowns, 1 row that can hold them).""")

# Issue 32: an FMI 3.0 output clock drives a triggered input clock of another FMU (SSP 2.0
# connectors of type Clock and Int32). Reference: reference/clocked_counter.csv.
ssd("clocked_counter", "clocked_counter", "counting",
    [component("trigger", "Trigger", [("crossed", "output", 'Clock intervalVariability="triggered"', None),
                                      ("crossings", "output", "Int32", None)]),
     component("counter", "ClockTicks_triggered", [("tick", "input", 'Clock intervalVariability="triggered"', None),
                                                    ("count", "output", "Int32", None)])],
    [connection("trigger", "crossed", "counter", "tick")],
    stop=2, version="2.0", comment="""Issue 32: Trigger's triggered output clock `crossed` (a state event
at t = 0.3 + 0.4 k) drives the triggered input clock `tick` of ClockTicks_triggered, which counts
the ticks (der(x) = count). SSP 2.0: connectors of type Clock. Reference:
reference/clocked_counter.csv (models/clocks/reference/make_reference.py).""")
