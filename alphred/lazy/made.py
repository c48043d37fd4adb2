"""The methods dataclass makes for each ``deferred_dataclass`` (generated: do not edit by hand).

Written by ``python -m alphred.lazy.gen`` from dataclass's own text for each class: see ``gen.py``.
"""
# mypy: ignore-errors
# fmt: off
# ruff: noqa

def _0(_type_envelopes, _type_manifest, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,envelopes:_type_envelopes,manifest:_type_manifest)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'envelopes',envelopes)
  __dataclass_builtins_object__.__setattr__(self,'manifest',manifest)
 return __init__

def _1():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(envelopes={self.envelopes!r}, manifest={self.manifest!r})"
 return __repr__

def _2():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.envelopes,self.manifest,)==(other.envelopes,other.manifest,)
  return NotImplemented
 return __eq__

def _3(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('envelopes','manifest',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _4(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('envelopes','manifest',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _5():
 def __hash__(self):
  return hash((self.envelopes,self.manifest,))
 return __hash__

def _6(_type_phase, _type_attempt, _type_text, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,text:_type_text)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'text',text)
 return __init__

def _7():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, text={self.text!r})"
 return __repr__

def _8():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.text,)==(other.phase,other.attempt,other.text,)
  return NotImplemented
 return __eq__

def _9(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','text',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _10(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','text',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _11():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.text,))
 return __hash__

def _12(_type_phase, _type_base, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,phase:_type_phase,base:_type_base)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'base',base)
 return __init__

def _13():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, base={self.base!r})"
 return __repr__

def _14():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.base,)==(other.phase,other.base,)
  return NotImplemented
 return __eq__

def _15(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','base',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _16(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','base',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _17():
 def __hash__(self):
  return hash((self.phase,self.base,))
 return __hash__

def _18(_type_phase, _type_decision, _type_comment, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_comment, _return_type):
 def __init__(self,phase:_type_phase,decision:_type_decision,comment:_type_comment=_dflt_comment)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'comment',comment)
 return __init__

def _19():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, decision={self.decision!r}, comment={self.comment!r})"
 return __repr__

def _20():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.decision,self.comment,)==(other.phase,other.decision,other.comment,)
  return NotImplemented
 return __eq__

def _21(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','decision','comment',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _22(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','decision','comment',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _23():
 def __hash__(self):
  return hash((self.phase,self.decision,self.comment,))
 return __hash__

def _24(_type_phase, _type_attempt, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
 return __init__

def _25():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r})"
 return __repr__

def _26():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,)==(other.phase,other.attempt,)
  return NotImplemented
 return __eq__

def _27(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _28(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _29():
 def __hash__(self):
  return hash((self.phase,self.attempt,))
 return __hash__

def _30(_type_phase, _type_attempt, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
 return __init__

def _31():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r})"
 return __repr__

def _32():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,)==(other.phase,other.attempt,)
  return NotImplemented
 return __eq__

def _33(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _34(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _35():
 def __hash__(self):
  return hash((self.phase,self.attempt,))
 return __hash__

def _36(_type_phase, _type_attempt, _type_summary, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_summary, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,summary:_type_summary=_dflt_summary)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'summary',summary)
 return __init__

def _37():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, summary={self.summary!r})"
 return __repr__

def _38():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.summary,)==(other.phase,other.attempt,other.summary,)
  return NotImplemented
 return __eq__

def _39(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','summary',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _40(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','summary',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _41():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.summary,))
 return __hash__

def _42(MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self)->_return_type:
  pass
 return __init__

def _43():
 def __repr__(self):
  return self.__class__.__qualname__ + f"()"
 return __repr__

def _44():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return ()==()
  return NotImplemented
 return __eq__

def _45(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _46(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _47():
 def __hash__(self):
  return hash(())
 return __hash__

def _48(_type_phase, _type_attempt, _type_summary, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_summary, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,summary:_type_summary=_dflt_summary)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'summary',summary)
 return __init__

def _49():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, summary={self.summary!r})"
 return __repr__

def _50():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.summary,)==(other.phase,other.attempt,other.summary,)
  return NotImplemented
 return __eq__

def _51(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','summary',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _52(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','summary',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _53():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.summary,))
 return __hash__

def _54(_type_step, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,step:_type_step)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'step',step)
 return __init__

def _55():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(step={self.step!r})"
 return __repr__

def _56():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.step,)==(other.step,)
  return NotImplemented
 return __eq__

def _57(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('step',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _58(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('step',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _59():
 def __hash__(self):
  return hash((self.step,))
 return __hash__

def _60(_type_step, _type_url, _type_nothing, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_url, _dflt_nothing, _return_type):
 def __init__(self,step:_type_step,url:_type_url=_dflt_url,nothing:_type_nothing=_dflt_nothing)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'step',step)
  __dataclass_builtins_object__.__setattr__(self,'url',url)
  __dataclass_builtins_object__.__setattr__(self,'nothing',nothing)
 return __init__

def _61():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(step={self.step!r}, url={self.url!r}, nothing={self.nothing!r})"
 return __repr__

def _62():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.step,self.url,self.nothing,)==(other.step,other.url,other.nothing,)
  return NotImplemented
 return __eq__

def _63(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('step','url','nothing',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _64(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('step','url','nothing',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _65():
 def __hash__(self):
  return hash((self.step,self.url,self.nothing,))
 return __hash__

def _66(_type_step, _type_kind, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,step:_type_step,kind:_type_kind)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'step',step)
  __dataclass_builtins_object__.__setattr__(self,'kind',kind)
 return __init__

def _67():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(step={self.step!r}, kind={self.kind!r})"
 return __repr__

def _68():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.step,self.kind,)==(other.step,other.kind,)
  return NotImplemented
 return __eq__

def _69(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('step','kind',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _70(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('step','kind',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _71():
 def __hash__(self):
  return hash((self.step,self.kind,))
 return __hash__

def _72(_type_join, _type_branch, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,join:_type_join,branch:_type_branch)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'join',join)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
 return __init__

def _73():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(join={self.join!r}, branch={self.branch!r})"
 return __repr__

def _74():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.join,self.branch,)==(other.join,other.branch,)
  return NotImplemented
 return __eq__

def _75(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('join','branch',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _76(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('join','branch',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _77():
 def __hash__(self):
  return hash((self.join,self.branch,))
 return __hash__

def _78(_type_join, _type_branch, _type_conflicts, _type_ref, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_ref, _return_type):
 def __init__(self,join:_type_join,branch:_type_branch,conflicts:_type_conflicts,ref:_type_ref=_dflt_ref)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'join',join)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'conflicts',conflicts)
  __dataclass_builtins_object__.__setattr__(self,'ref',ref)
 return __init__

def _79():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(join={self.join!r}, branch={self.branch!r}, conflicts={self.conflicts!r}, ref={self.ref!r})"
 return __repr__

def _80():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.join,self.branch,self.conflicts,self.ref,)==(other.join,other.branch,other.conflicts,other.ref,)
  return NotImplemented
 return __eq__

def _81(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('join','branch','conflicts','ref',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _82(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('join','branch','conflicts','ref',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _83():
 def __hash__(self):
  return hash((self.join,self.branch,self.conflicts,self.ref,))
 return __hash__

def _84(_type_join, _type_branch, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,join:_type_join,branch:_type_branch)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'join',join)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
 return __init__

def _85():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(join={self.join!r}, branch={self.branch!r})"
 return __repr__

def _86():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.join,self.branch,)==(other.join,other.branch,)
  return NotImplemented
 return __eq__

def _87(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('join','branch',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _88(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('join','branch',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _89():
 def __hash__(self):
  return hash((self.join,self.branch,))
 return __hash__

def _90(MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self)->_return_type:
  pass
 return __init__

def _91():
 def __repr__(self):
  return self.__class__.__qualname__ + f"()"
 return __repr__

def _92():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return ()==()
  return NotImplemented
 return __eq__

def _93(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _94(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _95():
 def __hash__(self):
  return hash(())
 return __hash__

def _96(_type_phase, _type_attempt, _type_decision, _type_report, _type_exit_code, _type_tokens, _type_cost_usd, _type_checks, _type_tree, _type_child_steps, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_decision, _dflt_report, _dflt_exit_code, _dflt_tokens, _dflt_cost_usd, _dflt_checks, _dflt_tree, _dflt_child_steps, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,decision:_type_decision=_dflt_decision,report:_type_report=_dflt_report,exit_code:_type_exit_code=_dflt_exit_code,tokens:_type_tokens=_dflt_tokens,cost_usd:_type_cost_usd=_dflt_cost_usd,checks:_type_checks=_HAS_DEFAULT_FACTORY,tree:_type_tree=_dflt_tree,child_steps:_type_child_steps=_dflt_child_steps)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'report',report)
  __dataclass_builtins_object__.__setattr__(self,'exit_code',exit_code)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'cost_usd',cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'checks',_dflt_checks() if checks is _HAS_DEFAULT_FACTORY else checks)
  __dataclass_builtins_object__.__setattr__(self,'tree',tree)
  __dataclass_builtins_object__.__setattr__(self,'child_steps',child_steps)
 return __init__

def _97():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, decision={self.decision!r}, report={self.report!r}, exit_code={self.exit_code!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, checks={self.checks!r}, tree={self.tree!r}, child_steps={self.child_steps!r})"
 return __repr__

def _98():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.decision,self.report,self.exit_code,self.tokens,self.cost_usd,self.checks,self.tree,self.child_steps,)==(other.phase,other.attempt,other.decision,other.report,other.exit_code,other.tokens,other.cost_usd,other.checks,other.tree,other.child_steps,)
  return NotImplemented
 return __eq__

def _99(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','decision','report','exit_code','tokens','cost_usd','checks','tree','child_steps',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _100(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','decision','report','exit_code','tokens','cost_usd','checks','tree','child_steps',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _101():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.decision,self.report,self.exit_code,self.tokens,self.cost_usd,self.checks,self.tree,self.child_steps,))
 return __hash__

def _102(_type_phase, _type_attempt, _type_reason, _type_retryable, _type_error_code, _type_tokens, _type_cost_usd, _type_wake_at, _type_wait_seconds, _type_child_steps, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_retryable, _dflt_error_code, _dflt_tokens, _dflt_cost_usd, _dflt_wake_at, _dflt_wait_seconds, _dflt_child_steps, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,reason:_type_reason,retryable:_type_retryable=_dflt_retryable,error_code:_type_error_code=_dflt_error_code,tokens:_type_tokens=_dflt_tokens,cost_usd:_type_cost_usd=_dflt_cost_usd,wake_at:_type_wake_at=_dflt_wake_at,wait_seconds:_type_wait_seconds=_dflt_wait_seconds,child_steps:_type_child_steps=_dflt_child_steps)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'retryable',retryable)
  __dataclass_builtins_object__.__setattr__(self,'error_code',error_code)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'cost_usd',cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'wake_at',wake_at)
  __dataclass_builtins_object__.__setattr__(self,'wait_seconds',wait_seconds)
  __dataclass_builtins_object__.__setattr__(self,'child_steps',child_steps)
 return __init__

def _103():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, reason={self.reason!r}, retryable={self.retryable!r}, error_code={self.error_code!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, wake_at={self.wake_at!r}, wait_seconds={self.wait_seconds!r}, child_steps={self.child_steps!r})"
 return __repr__

def _104():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.reason,self.retryable,self.error_code,self.tokens,self.cost_usd,self.wake_at,self.wait_seconds,self.child_steps,)==(other.phase,other.attempt,other.reason,other.retryable,other.error_code,other.tokens,other.cost_usd,other.wake_at,other.wait_seconds,other.child_steps,)
  return NotImplemented
 return __eq__

def _105(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','reason','retryable','error_code','tokens','cost_usd','wake_at','wait_seconds','child_steps',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _106(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','reason','retryable','error_code','tokens','cost_usd','wake_at','wait_seconds','child_steps',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _107():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.reason,self.retryable,self.error_code,self.tokens,self.cost_usd,self.wake_at,self.wait_seconds,self.child_steps,))
 return __hash__

def _108(_type_phase, _type_attempt, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
 return __init__

def _109():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r})"
 return __repr__

def _110():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,)==(other.phase,other.attempt,)
  return NotImplemented
 return __eq__

def _111(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _112(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _113():
 def __hash__(self):
  return hash((self.phase,self.attempt,))
 return __hash__

def _114(_type_url, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,url:_type_url)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'url',url)
 return __init__

def _115():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(url={self.url!r})"
 return __repr__

def _116():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.url,)==(other.url,)
  return NotImplemented
 return __eq__

def _117(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('url',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _118(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('url',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _119():
 def __hash__(self):
  return hash((self.url,))
 return __hash__

def _120(_type_source, _type_attempt, _type_decision, _type_target, _type_priority, _type_reason, _type_branch, _type_fan_out, _type_explanation, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_reason, _dflt_branch, _dflt_fan_out, _dflt_explanation, _return_type):
 def __init__(self,source:_type_source,attempt:_type_attempt,decision:_type_decision,target:_type_target,priority:_type_priority,reason:_type_reason=_dflt_reason,branch:_type_branch=_dflt_branch,fan_out:_type_fan_out=_dflt_fan_out,explanation:_type_explanation=_dflt_explanation)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'source',source)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'target',target)
  __dataclass_builtins_object__.__setattr__(self,'priority',priority)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'fan_out',fan_out)
  __dataclass_builtins_object__.__setattr__(self,'explanation',explanation)
 return __init__

def _121():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(source={self.source!r}, attempt={self.attempt!r}, decision={self.decision!r}, target={self.target!r}, priority={self.priority!r}, reason={self.reason!r}, branch={self.branch!r}, fan_out={self.fan_out!r}, explanation={self.explanation!r})"
 return __repr__

def _122():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.source,self.attempt,self.decision,self.target,self.priority,self.reason,self.branch,self.fan_out,)==(other.source,other.attempt,other.decision,other.target,other.priority,other.reason,other.branch,other.fan_out,)
  return NotImplemented
 return __eq__

def _123(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('source','attempt','decision','target','priority','reason','branch','fan_out','explanation',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _124(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('source','attempt','decision','target','priority','reason','branch','fan_out','explanation',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _125():
 def __hash__(self):
  return hash((self.source,self.attempt,self.decision,self.target,self.priority,self.reason,self.branch,self.fan_out,))
 return __hash__

def _126(_type_phase, _type_attempt, _type_outcome, _type_decision, _type_next, _type_reason, _type_error_code, _type_branch, _type_provider, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_decision, _dflt_next, _dflt_reason, _dflt_error_code, _dflt_branch, _dflt_provider, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,outcome:_type_outcome,decision:_type_decision=_dflt_decision,next:_type_next=_dflt_next,reason:_type_reason=_dflt_reason,error_code:_type_error_code=_dflt_error_code,branch:_type_branch=_dflt_branch,provider:_type_provider=_dflt_provider)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'outcome',outcome)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'next',next)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'error_code',error_code)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
 return __init__

def _127():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, outcome={self.outcome!r}, decision={self.decision!r}, next={self.next!r}, reason={self.reason!r}, error_code={self.error_code!r}, branch={self.branch!r}, provider={self.provider!r})"
 return __repr__

def _128():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.outcome,self.decision,self.next,self.reason,self.error_code,self.branch,)==(other.phase,other.attempt,other.outcome,other.decision,other.next,other.reason,other.error_code,other.branch,)
  return NotImplemented
 return __eq__

def _129(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','outcome','decision','next','reason','error_code','branch','provider',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _130(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','outcome','decision','next','reason','error_code','branch','provider',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _131():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.outcome,self.decision,self.next,self.reason,self.error_code,self.branch,))
 return __hash__

def _132(MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self)->_return_type:
  pass
 return __init__

def _133():
 def __repr__(self):
  return self.__class__.__qualname__ + f"()"
 return __repr__

def _134():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return ()==()
  return NotImplemented
 return __eq__

def _135(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _136(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _137():
 def __hash__(self):
  return hash(())
 return __hash__

def _138(MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self)->_return_type:
  pass
 return __init__

def _139():
 def __repr__(self):
  return self.__class__.__qualname__ + f"()"
 return __repr__

def _140():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return ()==()
  return NotImplemented
 return __eq__

def _141(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _142(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _143():
 def __hash__(self):
  return hash(())
 return __hash__

def _144(_type_status, _type_reason, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_reason, _return_type):
 def __init__(self,status:_type_status,reason:_type_reason=_dflt_reason)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
 return __init__

def _145():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(status={self.status!r}, reason={self.reason!r})"
 return __repr__

def _146():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.status,self.reason,)==(other.status,other.reason,)
  return NotImplemented
 return __eq__

def _147(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('status','reason',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _148(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('status','reason',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _149():
 def __hash__(self):
  return hash((self.status,self.reason,))
 return __hash__

def _150(MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self)->_return_type:
  pass
 return __init__

def _151():
 def __repr__(self):
  return self.__class__.__qualname__ + f"()"
 return __repr__

def _152():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return ()==()
  return NotImplemented
 return __eq__

def _153(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _154(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _155():
 def __hash__(self):
  return hash(())
 return __hash__

def _156(_type_phase, _type_status, _type_attempt, _type_values, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_values, _return_type):
 def __init__(self,phase:_type_phase,status:_type_status,attempt:_type_attempt,values:_type_values=_HAS_DEFAULT_FACTORY)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'values',_dflt_values() if values is _HAS_DEFAULT_FACTORY else values)
 return __init__

def _157():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, status={self.status!r}, attempt={self.attempt!r}, values={self.values!r})"
 return __repr__

def _158():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.status,self.attempt,)==(other.phase,other.status,other.attempt,)
  return NotImplemented
 return __eq__

def _159(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','status','attempt','values',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _160(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','status','attempt','values',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _161():
 def __hash__(self):
  return hash((self.phase,self.status,self.attempt,))
 return __hash__

def _162(_type_status, _type_reason, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_reason, _return_type):
 def __init__(self,status:_type_status,reason:_type_reason=_dflt_reason)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
 return __init__

def _163():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(status={self.status!r}, reason={self.reason!r})"
 return __repr__

def _164():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.status,self.reason,)==(other.status,other.reason,)
  return NotImplemented
 return __eq__

def _165(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('status','reason',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _166(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('status','reason',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _167():
 def __hash__(self):
  return hash((self.status,self.reason,))
 return __hash__

def _168(_type_phase, _type_attempt, _type_visit, _type_branch, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_branch, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,visit:_type_visit,branch:_type_branch=_dflt_branch)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'visit',visit)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
 return __init__

def _169():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, visit={self.visit!r}, branch={self.branch!r})"
 return __repr__

def _170():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.visit,self.branch,)==(other.phase,other.attempt,other.visit,other.branch,)
  return NotImplemented
 return __eq__

def _171(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','visit','branch',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _172(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','visit','branch',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _173():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.visit,self.branch,))
 return __hash__

def _174(_type_phase, _type_attempt, _type_branch, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_branch, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,branch:_type_branch=_dflt_branch)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
 return __init__

def _175():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, branch={self.branch!r})"
 return __repr__

def _176():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.branch,)==(other.phase,other.attempt,other.branch,)
  return NotImplemented
 return __eq__

def _177(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','branch',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _178(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','branch',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _179():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.branch,))
 return __hash__

def _180(MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self)->_return_type:
  pass
 return __init__

def _181():
 def __repr__(self):
  return self.__class__.__qualname__ + f"()"
 return __repr__

def _182():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return ()==()
  return NotImplemented
 return __eq__

def _183(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _184(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ():
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _185():
 def __hash__(self):
  return hash(())
 return __hash__

def _186(_type_head, _type_current, _type_queued, _type_queued_new_visit, _type_arrived, _type_last, _type_index, _type_item, _type_failed, _type_skipped, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_current, _dflt_queued, _dflt_queued_new_visit, _dflt_arrived, _dflt_last, _dflt_index, _dflt_item, _dflt_failed, _dflt_skipped, _return_type):
 def __init__(self,head:_type_head,current:_type_current=_dflt_current,queued:_type_queued=_dflt_queued,queued_new_visit:_type_queued_new_visit=_dflt_queued_new_visit,arrived:_type_arrived=_dflt_arrived,last:_type_last=_dflt_last,index:_type_index=_dflt_index,item:_type_item=_dflt_item,failed:_type_failed=_dflt_failed,skipped:_type_skipped=_dflt_skipped)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'head',head)
  __dataclass_builtins_object__.__setattr__(self,'current',current)
  __dataclass_builtins_object__.__setattr__(self,'queued',queued)
  __dataclass_builtins_object__.__setattr__(self,'queued_new_visit',queued_new_visit)
  __dataclass_builtins_object__.__setattr__(self,'arrived',arrived)
  __dataclass_builtins_object__.__setattr__(self,'last',last)
  __dataclass_builtins_object__.__setattr__(self,'index',index)
  __dataclass_builtins_object__.__setattr__(self,'item',item)
  __dataclass_builtins_object__.__setattr__(self,'failed',failed)
  __dataclass_builtins_object__.__setattr__(self,'skipped',skipped)
 return __init__

def _187():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(head={self.head!r}, current={self.current!r}, queued={self.queued!r}, queued_new_visit={self.queued_new_visit!r}, arrived={self.arrived!r}, last={self.last!r}, index={self.index!r}, item={self.item!r}, failed={self.failed!r}, skipped={self.skipped!r})"
 return __repr__

def _188():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.head,self.current,self.queued,self.queued_new_visit,self.arrived,self.last,self.index,self.item,self.failed,self.skipped,)==(other.head,other.current,other.queued,other.queued_new_visit,other.arrived,other.last,other.index,other.item,other.failed,other.skipped,)
  return NotImplemented
 return __eq__

def _189(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('head','current','queued','queued_new_visit','arrived','last','index','item','failed','skipped',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _190(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('head','current','queued','queued_new_visit','arrived','last','index','item','failed','skipped',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _191():
 def __hash__(self):
  return hash((self.head,self.current,self.queued,self.queued_new_visit,self.arrived,self.last,self.index,self.item,self.failed,self.skipped,))
 return __hash__

def _192(_type_join, _type_pending, _type_source, _type_ref, _type_conflicts, _type_status, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_source, _dflt_ref, _dflt_conflicts, _dflt_status, _return_type):
 def __init__(self,join:_type_join,pending:_type_pending,source:_type_source=_dflt_source,ref:_type_ref=_dflt_ref,conflicts:_type_conflicts=_dflt_conflicts,status:_type_status=_dflt_status)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'join',join)
  __dataclass_builtins_object__.__setattr__(self,'pending',pending)
  __dataclass_builtins_object__.__setattr__(self,'source',source)
  __dataclass_builtins_object__.__setattr__(self,'ref',ref)
  __dataclass_builtins_object__.__setattr__(self,'conflicts',conflicts)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
 return __init__

def _193():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(join={self.join!r}, pending={self.pending!r}, source={self.source!r}, ref={self.ref!r}, conflicts={self.conflicts!r}, status={self.status!r})"
 return __repr__

def _194():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.join,self.pending,self.source,self.ref,self.conflicts,self.status,)==(other.join,other.pending,other.source,other.ref,other.conflicts,other.status,)
  return NotImplemented
 return __eq__

def _195(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('join','pending','source','ref','conflicts','status',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _196(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('join','pending','source','ref','conflicts','status',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _197():
 def __hash__(self):
  return hash((self.join,self.pending,self.source,self.ref,self.conflicts,self.status,))
 return __hash__

def _198(_type_status, _type_attempt, _type_visits, _type_entries, _type_consecutive_failures, _type_decision, _type_report, _type_exit_code, _type_tokens, _type_cost_usd, _type_entered_from, _type_checks, _type_tree, _type_stalls, _type_provider, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_status, _dflt_attempt, _dflt_visits, _dflt_entries, _dflt_consecutive_failures, _dflt_decision, _dflt_report, _dflt_exit_code, _dflt_tokens, _dflt_cost_usd, _dflt_entered_from, _dflt_checks, _dflt_tree, _dflt_stalls, _dflt_provider, _return_type):
 def __init__(self,status:_type_status=_dflt_status,attempt:_type_attempt=_dflt_attempt,visits:_type_visits=_dflt_visits,entries:_type_entries=_dflt_entries,consecutive_failures:_type_consecutive_failures=_dflt_consecutive_failures,decision:_type_decision=_dflt_decision,report:_type_report=_dflt_report,exit_code:_type_exit_code=_dflt_exit_code,tokens:_type_tokens=_dflt_tokens,cost_usd:_type_cost_usd=_dflt_cost_usd,entered_from:_type_entered_from=_dflt_entered_from,checks:_type_checks=_HAS_DEFAULT_FACTORY,tree:_type_tree=_dflt_tree,stalls:_type_stalls=_dflt_stalls,provider:_type_provider=_dflt_provider)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'visits',visits)
  __dataclass_builtins_object__.__setattr__(self,'entries',entries)
  __dataclass_builtins_object__.__setattr__(self,'consecutive_failures',consecutive_failures)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'report',report)
  __dataclass_builtins_object__.__setattr__(self,'exit_code',exit_code)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'cost_usd',cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'entered_from',entered_from)
  __dataclass_builtins_object__.__setattr__(self,'checks',_dflt_checks() if checks is _HAS_DEFAULT_FACTORY else checks)
  __dataclass_builtins_object__.__setattr__(self,'tree',tree)
  __dataclass_builtins_object__.__setattr__(self,'stalls',stalls)
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
 return __init__

def _199():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(status={self.status!r}, attempt={self.attempt!r}, visits={self.visits!r}, entries={self.entries!r}, consecutive_failures={self.consecutive_failures!r}, decision={self.decision!r}, report={self.report!r}, exit_code={self.exit_code!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, entered_from={self.entered_from!r}, checks={self.checks!r}, tree={self.tree!r}, stalls={self.stalls!r}, provider={self.provider!r})"
 return __repr__

def _200():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.status,self.attempt,self.visits,self.entries,self.consecutive_failures,self.decision,self.report,self.exit_code,self.tokens,self.cost_usd,self.entered_from,self.checks,self.tree,self.stalls,self.provider,)==(other.status,other.attempt,other.visits,other.entries,other.consecutive_failures,other.decision,other.report,other.exit_code,other.tokens,other.cost_usd,other.entered_from,other.checks,other.tree,other.stalls,other.provider,)
  return NotImplemented
 return __eq__

def _201(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('status','attempt','visits','entries','consecutive_failures','decision','report','exit_code','tokens','cost_usd','entered_from','checks','tree','stalls','provider',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _202(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('status','attempt','visits','entries','consecutive_failures','decision','report','exit_code','tokens','cost_usd','entered_from','checks','tree','stalls','provider',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _203():
 def __hash__(self):
  return hash((self.status,self.attempt,self.visits,self.entries,self.consecutive_failures,self.decision,self.report,self.exit_code,self.tokens,self.cost_usd,self.entered_from,self.checks,self.tree,self.stalls,self.provider,))
 return __hash__

def _204(_type_workflow, _type_status, _type_reason, _type_inputs, _type_phases, _type_edges, _type_steps, _type_tokens, _type_cost_usd, _type_current, _type_queued, _type_queued_new_visit, _type_pause_requested, _type_history, _type_deliver, _type_delivery, _type_pr_url, _type_finish_reason, _type_delivery_note, _type_lanes, _type_merge, _type_interrupting, _type_wake_at, _type_waited, _type_branches, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_status, _dflt_reason, _dflt_inputs, _dflt_phases, _dflt_edges, _dflt_steps, _dflt_tokens, _dflt_cost_usd, _dflt_current, _dflt_queued, _dflt_queued_new_visit, _dflt_pause_requested, _dflt_history, _dflt_deliver, _dflt_delivery, _dflt_pr_url, _dflt_finish_reason, _dflt_delivery_note, _dflt_lanes, _dflt_merge, _dflt_interrupting, _dflt_wake_at, _dflt_waited, _dflt_branches, _return_type):
 def __init__(self,workflow:_type_workflow,status:_type_status=_dflt_status,reason:_type_reason=_dflt_reason,inputs:_type_inputs=_HAS_DEFAULT_FACTORY,phases:_type_phases=_HAS_DEFAULT_FACTORY,edges:_type_edges=_HAS_DEFAULT_FACTORY,steps:_type_steps=_dflt_steps,tokens:_type_tokens=_dflt_tokens,cost_usd:_type_cost_usd=_dflt_cost_usd,current:_type_current=_dflt_current,queued:_type_queued=_dflt_queued,queued_new_visit:_type_queued_new_visit=_dflt_queued_new_visit,pause_requested:_type_pause_requested=_dflt_pause_requested,history:_type_history=_dflt_history,deliver:_type_deliver=_dflt_deliver,delivery:_type_delivery=_dflt_delivery,pr_url:_type_pr_url=_dflt_pr_url,finish_reason:_type_finish_reason=_dflt_finish_reason,delivery_note:_type_delivery_note=_dflt_delivery_note,lanes:_type_lanes=_dflt_lanes,merge:_type_merge=_dflt_merge,interrupting:_type_interrupting=_dflt_interrupting,wake_at:_type_wake_at=_dflt_wake_at,waited:_type_waited=_dflt_waited,branches:_type_branches=_dflt_branches)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'workflow',workflow)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'inputs',_dflt_inputs() if inputs is _HAS_DEFAULT_FACTORY else inputs)
  __dataclass_builtins_object__.__setattr__(self,'phases',_dflt_phases() if phases is _HAS_DEFAULT_FACTORY else phases)
  __dataclass_builtins_object__.__setattr__(self,'edges',_dflt_edges() if edges is _HAS_DEFAULT_FACTORY else edges)
  __dataclass_builtins_object__.__setattr__(self,'steps',steps)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'cost_usd',cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'current',current)
  __dataclass_builtins_object__.__setattr__(self,'queued',queued)
  __dataclass_builtins_object__.__setattr__(self,'queued_new_visit',queued_new_visit)
  __dataclass_builtins_object__.__setattr__(self,'pause_requested',pause_requested)
  __dataclass_builtins_object__.__setattr__(self,'history',history)
  __dataclass_builtins_object__.__setattr__(self,'deliver',deliver)
  __dataclass_builtins_object__.__setattr__(self,'delivery',delivery)
  __dataclass_builtins_object__.__setattr__(self,'pr_url',pr_url)
  __dataclass_builtins_object__.__setattr__(self,'finish_reason',finish_reason)
  __dataclass_builtins_object__.__setattr__(self,'delivery_note',delivery_note)
  __dataclass_builtins_object__.__setattr__(self,'lanes',lanes)
  __dataclass_builtins_object__.__setattr__(self,'merge',merge)
  __dataclass_builtins_object__.__setattr__(self,'interrupting',interrupting)
  __dataclass_builtins_object__.__setattr__(self,'wake_at',wake_at)
  __dataclass_builtins_object__.__setattr__(self,'waited',waited)
  __dataclass_builtins_object__.__setattr__(self,'branches',branches)
 return __init__

def _205():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(status={self.status!r}, reason={self.reason!r}, inputs={self.inputs!r}, phases={self.phases!r}, edges={self.edges!r}, steps={self.steps!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, current={self.current!r}, queued={self.queued!r}, queued_new_visit={self.queued_new_visit!r}, pause_requested={self.pause_requested!r}, history={self.history!r}, deliver={self.deliver!r}, delivery={self.delivery!r}, pr_url={self.pr_url!r}, finish_reason={self.finish_reason!r}, delivery_note={self.delivery_note!r}, lanes={self.lanes!r}, merge={self.merge!r}, interrupting={self.interrupting!r}, wake_at={self.wake_at!r}, waited={self.waited!r}, branches={self.branches!r})"
 return __repr__

def _206():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.workflow,self.status,self.reason,self.inputs,self.phases,self.edges,self.steps,self.tokens,self.cost_usd,self.current,self.queued,self.queued_new_visit,self.pause_requested,self.history,self.deliver,self.delivery,self.pr_url,self.finish_reason,self.delivery_note,self.lanes,self.merge,self.interrupting,self.wake_at,self.waited,self.branches,)==(other.workflow,other.status,other.reason,other.inputs,other.phases,other.edges,other.steps,other.tokens,other.cost_usd,other.current,other.queued,other.queued_new_visit,other.pause_requested,other.history,other.deliver,other.delivery,other.pr_url,other.finish_reason,other.delivery_note,other.lanes,other.merge,other.interrupting,other.wake_at,other.waited,other.branches,)
  return NotImplemented
 return __eq__

def _207(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('workflow','status','reason','inputs','phases','edges','steps','tokens','cost_usd','current','queued','queued_new_visit','pause_requested','history','deliver','delivery','pr_url','finish_reason','delivery_note','lanes','merge','interrupting','wake_at','waited','branches',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _208(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('workflow','status','reason','inputs','phases','edges','steps','tokens','cost_usd','current','queued','queued_new_visit','pause_requested','history','deliver','delivery','pr_url','finish_reason','delivery_note','lanes','merge','interrupting','wake_at','waited','branches',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _209():
 def __hash__(self):
  return hash((self.workflow,self.status,self.reason,self.inputs,self.phases,self.edges,self.steps,self.tokens,self.cost_usd,self.current,self.queued,self.queued_new_visit,self.pause_requested,self.history,self.deliver,self.delivery,self.pr_url,self.finish_reason,self.delivery_note,self.lanes,self.merge,self.interrupting,self.wake_at,self.waited,self.branches,))
 return __hash__

def _210(_type_phase, _type_attempt, _type_outcome, _type_decision, _type_next, _type_reason, _type_error_code, _type_branch, _type_provider, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_decision, _dflt_next, _dflt_reason, _dflt_error_code, _dflt_branch, _dflt_provider, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,outcome:_type_outcome,decision:_type_decision=_dflt_decision,next:_type_next=_dflt_next,reason:_type_reason=_dflt_reason,error_code:_type_error_code=_dflt_error_code,branch:_type_branch=_dflt_branch,provider:_type_provider=_dflt_provider)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'outcome',outcome)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'next',next)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'error_code',error_code)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
 return __init__

def _211():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, outcome={self.outcome!r}, decision={self.decision!r}, next={self.next!r}, reason={self.reason!r}, error_code={self.error_code!r}, branch={self.branch!r}, provider={self.provider!r})"
 return __repr__

def _212():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.outcome,self.decision,self.next,self.reason,self.error_code,self.branch,self.provider,)==(other.phase,other.attempt,other.outcome,other.decision,other.next,other.reason,other.error_code,other.branch,other.provider,)
  return NotImplemented
 return __eq__

def _213(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase','attempt','outcome','decision','next','reason','error_code','branch','provider',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _214(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase','attempt','outcome','decision','next','reason','error_code','branch','provider',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _215():
 def __hash__(self):
  return hash((self.phase,self.attempt,self.outcome,self.decision,self.next,self.reason,self.error_code,self.branch,self.provider,))
 return __hash__

def _216(_type_file, _type_line, _type_column, _type_severity, _type_message, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,file:_type_file,line:_type_line,column:_type_column,severity:_type_severity,message:_type_message)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'file',file)
  __dataclass_builtins_object__.__setattr__(self,'line',line)
  __dataclass_builtins_object__.__setattr__(self,'column',column)
  __dataclass_builtins_object__.__setattr__(self,'severity',severity)
  __dataclass_builtins_object__.__setattr__(self,'message',message)
 return __init__

def _217():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(file={self.file!r}, line={self.line!r}, column={self.column!r}, severity={self.severity!r}, message={self.message!r})"
 return __repr__

def _218():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.file,self.line,self.column,self.severity,self.message,)==(other.file,other.line,other.column,other.severity,other.message,)
  return NotImplemented
 return __eq__

def _219(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('file','line','column','severity','message',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _220(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('file','line','column','severity','message',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _221():
 def __hash__(self):
  return hash((self.file,self.line,self.column,self.severity,self.message,))
 return __hash__

def _222(_type_git_dir, _type_work_tree, _type_hooks, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_work_tree, _dflt_hooks, _return_type):
 def __init__(self,git_dir:_type_git_dir,work_tree:_type_work_tree=_dflt_work_tree,hooks:_type_hooks=_dflt_hooks)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'git_dir',git_dir)
  __dataclass_builtins_object__.__setattr__(self,'work_tree',work_tree)
  __dataclass_builtins_object__.__setattr__(self,'hooks',hooks)
 return __init__

def _223():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(git_dir={self.git_dir!r}, work_tree={self.work_tree!r}, hooks={self.hooks!r})"
 return __repr__

def _224():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.git_dir,self.work_tree,self.hooks,)==(other.git_dir,other.work_tree,other.hooks,)
  return NotImplemented
 return __eq__

def _225(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('git_dir','work_tree','hooks',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _226(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('git_dir','work_tree','hooks',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _227():
 def __hash__(self):
  return hash((self.git_dir,self.work_tree,self.hooks,))
 return __hash__

def _228(_type_root, _type_git_common_dir, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,root:_type_root,git_common_dir:_type_git_common_dir)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'root',root)
  __dataclass_builtins_object__.__setattr__(self,'git_common_dir',git_common_dir)
 return __init__

def _229():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(root={self.root!r}, git_common_dir={self.git_common_dir!r})"
 return __repr__

def _230():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.root,self.git_common_dir,)==(other.root,other.git_common_dir,)
  return NotImplemented
 return __eq__

def _231(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('root','git_common_dir',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _232(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('root','git_common_dir',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _233():
 def __hash__(self):
  return hash((self.root,self.git_common_dir,))
 return __hash__

def _234(_type_sha, _type_conflicts, _type_already, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_conflicts, _dflt_already, _return_type):
 def __init__(self,sha:_type_sha,conflicts:_type_conflicts=_dflt_conflicts,already:_type_already=_dflt_already)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'sha',sha)
  __dataclass_builtins_object__.__setattr__(self,'conflicts',conflicts)
  __dataclass_builtins_object__.__setattr__(self,'already',already)
 return __init__

def _235():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(sha={self.sha!r}, conflicts={self.conflicts!r}, already={self.already!r})"
 return __repr__

def _236():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.sha,self.conflicts,self.already,)==(other.sha,other.conflicts,other.already,)
  return NotImplemented
 return __eq__

def _237(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('sha','conflicts','already',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _238(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('sha','conflicts','already',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _239():
 def __hash__(self):
  return hash((self.sha,self.conflicts,self.already,))
 return __hash__

def _240(_type_head, _type_entries, _type_watched, _type_racy_files, _type_racy_dirs, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,head:_type_head,entries:_type_entries,watched:_type_watched,racy_files:_type_racy_files,racy_dirs:_type_racy_dirs)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'head',head)
  __dataclass_builtins_object__.__setattr__(self,'entries',entries)
  __dataclass_builtins_object__.__setattr__(self,'watched',watched)
  __dataclass_builtins_object__.__setattr__(self,'racy_files',racy_files)
  __dataclass_builtins_object__.__setattr__(self,'racy_dirs',racy_dirs)
 return __init__

def _241():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(head={self.head!r}, entries={self.entries!r}, watched={self.watched!r}, racy_files={self.racy_files!r}, racy_dirs={self.racy_dirs!r})"
 return __repr__

def _242():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.head,self.entries,self.watched,self.racy_files,self.racy_dirs,)==(other.head,other.entries,other.watched,other.racy_files,other.racy_dirs,)
  return NotImplemented
 return __eq__

def _243(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('head','entries','watched','racy_files','racy_dirs',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _244(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('head','entries','watched','racy_files','racy_dirs',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _245():
 def __hash__(self):
  return hash((self.head,self.entries,self.watched,self.racy_files,self.racy_dirs,))
 return __hash__

def _246(_type_worktree, _type_files, _type_hooks, _type_hook_entries, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,worktree:_type_worktree,files:_type_files,hooks:_type_hooks,hook_entries:_type_hook_entries)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'worktree',worktree)
  __dataclass_builtins_object__.__setattr__(self,'files',files)
  __dataclass_builtins_object__.__setattr__(self,'hooks',hooks)
  __dataclass_builtins_object__.__setattr__(self,'hook_entries',hook_entries)
 return __init__

def _247():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(worktree={self.worktree!r}, files={self.files!r}, hooks={self.hooks!r}, hook_entries={self.hook_entries!r})"
 return __repr__

def _248():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.worktree,self.files,self.hooks,self.hook_entries,)==(other.worktree,other.files,other.hooks,other.hook_entries,)
  return NotImplemented
 return __eq__

def _249(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('worktree','files','hooks','hook_entries',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _250(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('worktree','files','hooks','hook_entries',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _251():
 def __hash__(self):
  return hash((self.worktree,self.files,self.hooks,self.hook_entries,))
 return __hash__

def _252(_type_path, _type_key, _type_digest, _type_content, _type_name, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,path:_type_path,key:_type_key,digest:_type_digest,content:_type_content,name:_type_name)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'digest',digest)
  __dataclass_builtins_object__.__setattr__(self,'content',content)
  __dataclass_builtins_object__.__setattr__(self,'name',name)
 return __init__

def _253():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, key={self.key!r}, digest={self.digest!r}, content={self.content!r}, name={self.name!r})"
 return __repr__

def _254():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.key,self.digest,self.content,self.name,)==(other.path,other.key,other.digest,other.content,other.name,)
  return NotImplemented
 return __eq__

def _255(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','key','digest','content','name',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _256(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','key','digest','content','name',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _257():
 def __hash__(self):
  return hash((self.path,self.key,self.digest,self.content,self.name,))
 return __hash__

def _258(_type_sha, _type_parent, _type_diff, _type_files_changed, _type_insertions, _type_deletions, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,sha:_type_sha,parent:_type_parent,diff:_type_diff,files_changed:_type_files_changed,insertions:_type_insertions,deletions:_type_deletions)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'sha',sha)
  __dataclass_builtins_object__.__setattr__(self,'parent',parent)
  __dataclass_builtins_object__.__setattr__(self,'diff',diff)
  __dataclass_builtins_object__.__setattr__(self,'files_changed',files_changed)
  __dataclass_builtins_object__.__setattr__(self,'insertions',insertions)
  __dataclass_builtins_object__.__setattr__(self,'deletions',deletions)
 return __init__

def _259():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(sha={self.sha!r}, parent={self.parent!r}, diff={self.diff!r}, files_changed={self.files_changed!r}, insertions={self.insertions!r}, deletions={self.deletions!r})"
 return __repr__

def _260():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.sha,self.parent,self.diff,self.files_changed,self.insertions,self.deletions,)==(other.sha,other.parent,other.diff,other.files_changed,other.insertions,other.deletions,)
  return NotImplemented
 return __eq__

def _261(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('sha','parent','diff','files_changed','insertions','deletions',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _262(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('sha','parent','diff','files_changed','insertions','deletions',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _263():
 def __hash__(self):
  return hash((self.sha,self.parent,self.diff,self.files_changed,self.insertions,self.deletions,))
 return __hash__

def _264(_type_sha, _type_ref_name, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,sha:_type_sha,ref_name:_type_ref_name)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'sha',sha)
  __dataclass_builtins_object__.__setattr__(self,'ref_name',ref_name)
 return __init__

def _265():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(sha={self.sha!r}, ref_name={self.ref_name!r})"
 return __repr__

def _266():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.sha,self.ref_name,)==(other.sha,other.ref_name,)
  return NotImplemented
 return __eq__

def _267(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('sha','ref_name',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _268(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('sha','ref_name',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _269():
 def __hash__(self):
  return hash((self.sha,self.ref_name,))
 return __hash__

def _270(_type_path, _type_branch, _type_reused, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,path:_type_path,branch:_type_branch,reused:_type_reused)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'reused',reused)
 return __init__

def _271():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, branch={self.branch!r}, reused={self.reused!r})"
 return __repr__

def _272():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.branch,self.reused,)==(other.path,other.branch,other.reused,)
  return NotImplemented
 return __eq__

def _273(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','branch','reused',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _274(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','branch','reused',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _275():
 def __hash__(self):
  return hash((self.path,self.branch,self.reused,))
 return __hash__

def _276(_type_left, _type_right, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,left:_type_left,right:_type_right)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'left',left)
  __dataclass_builtins_object__.__setattr__(self,'right',right)
 return __init__

def _277():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(left={self.left!r}, right={self.right!r})"
 return __repr__

def _278():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.left,self.right,)==(other.left,other.right,)
  return NotImplemented
 return __eq__

def _279(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('left','right',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _280(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('left','right',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _281():
 def __hash__(self):
  return hash((self.left,self.right,))
 return __hash__

def _282(_type_op, _type_left, _type_right, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,op:_type_op,left:_type_left,right:_type_right)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'op',op)
  __dataclass_builtins_object__.__setattr__(self,'left',left)
  __dataclass_builtins_object__.__setattr__(self,'right',right)
 return __init__

def _283():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(op={self.op!r}, left={self.left!r}, right={self.right!r})"
 return __repr__

def _284():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.op,self.left,self.right,)==(other.op,other.left,other.right,)
  return NotImplemented
 return __eq__

def _285(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('op','left','right',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _286(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('op','left','right',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _287():
 def __hash__(self):
  return hash((self.op,self.left,self.right,))
 return __hash__

def _288(_type_items, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,items:_type_items)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'items',items)
 return __init__

def _289():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(items={self.items!r})"
 return __repr__

def _290():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.items,)==(other.items,)
  return NotImplemented
 return __eq__

def _291(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('items',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _292(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('items',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _293():
 def __hash__(self):
  return hash((self.items,))
 return __hash__

def _294(_type_value, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,value:_type_value)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'value',value)
 return __init__

def _295():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(value={self.value!r})"
 return __repr__

def _296():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.value,)==(other.value,)
  return NotImplemented
 return __eq__

def _297(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('value',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _298(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('value',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _299():
 def __hash__(self):
  return hash((self.value,))
 return __hash__

def _300(_type_operand, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,operand:_type_operand)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'operand',operand)
 return __init__

def _301():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(operand={self.operand!r})"
 return __repr__

def _302():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.operand,)==(other.operand,)
  return NotImplemented
 return __eq__

def _303(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('operand',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _304(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('operand',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _305():
 def __hash__(self):
  return hash((self.operand,))
 return __hash__

def _306(_type_left, _type_right, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,left:_type_left,right:_type_right)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'left',left)
  __dataclass_builtins_object__.__setattr__(self,'right',right)
 return __init__

def _307():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(left={self.left!r}, right={self.right!r})"
 return __repr__

def _308():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.left,self.right,)==(other.left,other.right,)
  return NotImplemented
 return __eq__

def _309(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('left','right',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _310(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('left','right',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _311():
 def __hash__(self):
  return hash((self.left,self.right,))
 return __hash__

def _312(_type_parts, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,parts:_type_parts)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'parts',parts)
 return __init__

def _313():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(parts={self.parts!r})"
 return __repr__

def _314():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.parts,)==(other.parts,)
  return NotImplemented
 return __eq__

def _315(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('parts',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _316(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('parts',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _317():
 def __hash__(self):
  return hash((self.parts,))
 return __hash__

def _318(_type_path, _type_value, _type_note, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_note, _return_type):
 def __init__(self,path:_type_path,value:_type_value,note:_type_note=_dflt_note)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'value',value)
  __dataclass_builtins_object__.__setattr__(self,'note',note)
 return __init__

def _319():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, value={self.value!r}, note={self.note!r})"
 return __repr__

def _320():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.value,self.note,)==(other.path,other.value,other.note,)
  return NotImplemented
 return __eq__

def _321(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','value','note',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _322(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','value','note',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _323():
 def __hash__(self):
  return hash((self.path,self.value,self.note,))
 return __hash__

def _324(_type_context, _type_outer, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_outer, _return_type):
 def __init__(self,context:_type_context,outer:_type_outer=_dflt_outer)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'context',context)
  __dataclass_builtins_object__.__setattr__(self,'outer',outer)
 return __init__

def _325():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(context={self.context!r}, outer={self.outer!r})"
 return __repr__

def _326():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.context,self.outer,)==(other.context,other.outer,)
  return NotImplemented
 return __eq__

def _327(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('context','outer',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _328(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('context','outer',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _329():
 def __hash__(self):
  return hash((self.context,self.outer,))
 return __hash__

def _330(_type_path, _type_offset, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,path:_type_path,offset:_type_offset)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'offset',offset)
 return __init__

def _331():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, offset={self.offset!r})"
 return __repr__

def _332():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.offset,)==(other.path,other.offset,)
  return NotImplemented
 return __eq__

def _333(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','offset',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _334(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','offset',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _335():
 def __hash__(self):
  return hash((self.path,self.offset,))
 return __hash__

def _336(_type_text, _type_parts, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,text:_type_text,parts:_type_parts)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'text',text)
  __dataclass_builtins_object__.__setattr__(self,'parts',parts)
 return __init__

def _337():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(text={self.text!r}, parts={self.parts!r})"
 return __repr__

def _338():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.text,self.parts,)==(other.text,other.parts,)
  return NotImplemented
 return __eq__

def _339(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('text','parts',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _340(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('text','parts',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _341():
 def __hash__(self):
  return hash((self.text,self.parts,))
 return __hash__

def _342(_type_url, _type_root, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,url:_type_url,root:_type_root)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'url',url)
  __dataclass_builtins_object__.__setattr__(self,'root',root)
 return __init__

def _343():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(url={self.url!r}, root={self.root!r})"
 return __repr__

def _344():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.url,self.root,)==(other.url,other.root,)
  return NotImplemented
 return __eq__

def _345(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('url','root',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _346(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('url','root',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _347():
 def __hash__(self):
  return hash((self.url,self.root,))
 return __hash__

def _348(_type_workflow, _type_state, _type_options, _type_runtime, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,workflow:_type_workflow,state:_type_state,options:_type_options,runtime:_type_runtime)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'workflow',workflow)
  __dataclass_builtins_object__.__setattr__(self,'state',state)
  __dataclass_builtins_object__.__setattr__(self,'options',options)
  __dataclass_builtins_object__.__setattr__(self,'runtime',runtime)
 return __init__

def _349():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(workflow={self.workflow!r}, state={self.state!r}, options={self.options!r}, runtime={self.runtime!r})"
 return __repr__

def _350():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.workflow,self.state,self.options,self.runtime,)==(other.workflow,other.state,other.options,other.runtime,)
  return NotImplemented
 return __eq__

def _351(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('workflow','state','options','runtime',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _352(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('workflow','state','options','runtime',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _353():
 def __hash__(self):
  return hash((self.workflow,self.state,self.options,self.runtime,))
 return __hash__

def _354(_type_store, _type_location, _type_registry_for, _type_progress, _type_events, _type_on_runner, _type_clock, _type_waits, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_events, _dflt_on_runner, _dflt_clock, _dflt_waits, _return_type):
 def __init__(self,store:_type_store,location:_type_location,registry_for:_type_registry_for,progress:_type_progress,events:_type_events=_dflt_events,on_runner:_type_on_runner=_dflt_on_runner,clock:_type_clock=_dflt_clock,waits:_type_waits=_dflt_waits)->_return_type:
  self.store=store
  self.location=location
  self.registry_for=registry_for
  self.progress=progress
  self.events=events
  self.on_runner=on_runner
  self.clock=clock
  self.waits=waits
 return __init__

def _355():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(store={self.store!r}, location={self.location!r}, registry_for={self.registry_for!r}, progress={self.progress!r}, events={self.events!r}, on_runner={self.on_runner!r}, clock={self.clock!r}, waits={self.waits!r})"
 return __repr__

def _356():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.store,self.location,self.registry_for,self.progress,self.events,self.on_runner,self.clock,self.waits,)==(other.store,other.location,other.registry_for,other.progress,other.events,other.on_runner,other.clock,other.waits,)
  return NotImplemented
 return __eq__

def _357(_type_type, _type_content, _type_timestamp, _type_metadata, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_content, _dflt_timestamp, _dflt_metadata, _return_type):
 def __init__(self,type:_type_type,content:_type_content=_dflt_content,timestamp:_type_timestamp=_HAS_DEFAULT_FACTORY,metadata:_type_metadata=_HAS_DEFAULT_FACTORY)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'type',type)
  __dataclass_builtins_object__.__setattr__(self,'content',content)
  __dataclass_builtins_object__.__setattr__(self,'timestamp',_dflt_timestamp() if timestamp is _HAS_DEFAULT_FACTORY else timestamp)
  __dataclass_builtins_object__.__setattr__(self,'metadata',_dflt_metadata() if metadata is _HAS_DEFAULT_FACTORY else metadata)
 return __init__

def _358():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(type={self.type!r}, content={self.content!r}, timestamp={self.timestamp!r}, metadata={self.metadata!r})"
 return __repr__

def _359():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.type,self.content,self.timestamp,self.metadata,)==(other.type,other.content,other.timestamp,other.metadata,)
  return NotImplemented
 return __eq__

def _360(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('type','content','timestamp','metadata',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _361(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('type','content','timestamp','metadata',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _362():
 def __hash__(self):
  return hash((self.type,self.content,self.timestamp,self.metadata,))
 return __hash__

def _363(_type_working_directory, _type_phase, _type_attempt, _type_visit, _type_system_prompt, _type_context, _type_timeout, _type_model, _type_decisions, _type_settings, _type_cancel, _type_environment, _type_base_environment, _type_sandbox, _type_confine, _type_tools, _type_mcp, _type_mcp_env, _type_output, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_visit, _dflt_system_prompt, _dflt_context, _dflt_timeout, _dflt_model, _dflt_decisions, _dflt_settings, _dflt_cancel, _dflt_environment, _dflt_base_environment, _dflt_sandbox, _dflt_confine, _dflt_tools, _dflt_mcp, _dflt_mcp_env, _dflt_output, _return_type):
 def __init__(self,working_directory:_type_working_directory,phase:_type_phase,attempt:_type_attempt,visit:_type_visit=_dflt_visit,system_prompt:_type_system_prompt=_dflt_system_prompt,context:_type_context=_dflt_context,timeout:_type_timeout=_dflt_timeout,model:_type_model=_dflt_model,decisions:_type_decisions=_dflt_decisions,settings:_type_settings=_HAS_DEFAULT_FACTORY,cancel:_type_cancel=_dflt_cancel,environment:_type_environment=_HAS_DEFAULT_FACTORY,base_environment:_type_base_environment=_dflt_base_environment,sandbox:_type_sandbox=_dflt_sandbox,confine:_type_confine=_dflt_confine,tools:_type_tools=_dflt_tools,mcp:_type_mcp=_dflt_mcp,mcp_env:_type_mcp_env=_HAS_DEFAULT_FACTORY,output:_type_output=_dflt_output)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'working_directory',working_directory)
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'visit',visit)
  __dataclass_builtins_object__.__setattr__(self,'system_prompt',system_prompt)
  __dataclass_builtins_object__.__setattr__(self,'context',context)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
  __dataclass_builtins_object__.__setattr__(self,'model',model)
  __dataclass_builtins_object__.__setattr__(self,'decisions',decisions)
  __dataclass_builtins_object__.__setattr__(self,'settings',_dflt_settings() if settings is _HAS_DEFAULT_FACTORY else settings)
  __dataclass_builtins_object__.__setattr__(self,'cancel',cancel)
  __dataclass_builtins_object__.__setattr__(self,'environment',_dflt_environment() if environment is _HAS_DEFAULT_FACTORY else environment)
  __dataclass_builtins_object__.__setattr__(self,'base_environment',base_environment)
  __dataclass_builtins_object__.__setattr__(self,'sandbox',sandbox)
  __dataclass_builtins_object__.__setattr__(self,'confine',confine)
  __dataclass_builtins_object__.__setattr__(self,'tools',tools)
  __dataclass_builtins_object__.__setattr__(self,'mcp',mcp)
  __dataclass_builtins_object__.__setattr__(self,'mcp_env',_dflt_mcp_env() if mcp_env is _HAS_DEFAULT_FACTORY else mcp_env)
  __dataclass_builtins_object__.__setattr__(self,'output',output)
 return __init__

def _364():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(working_directory={self.working_directory!r}, phase={self.phase!r}, attempt={self.attempt!r}, visit={self.visit!r}, system_prompt={self.system_prompt!r}, context={self.context!r}, timeout={self.timeout!r}, model={self.model!r}, decisions={self.decisions!r}, settings={self.settings!r}, cancel={self.cancel!r}, environment={self.environment!r}, base_environment={self.base_environment!r}, sandbox={self.sandbox!r}, confine={self.confine!r}, tools={self.tools!r}, mcp={self.mcp!r}, mcp_env={self.mcp_env!r}, output={self.output!r})"
 return __repr__

def _365():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.working_directory,self.phase,self.attempt,self.visit,self.system_prompt,self.context,self.timeout,self.model,self.decisions,self.settings,self.cancel,self.environment,self.base_environment,self.sandbox,self.confine,self.tools,self.mcp,self.mcp_env,self.output,)==(other.working_directory,other.phase,other.attempt,other.visit,other.system_prompt,other.context,other.timeout,other.model,other.decisions,other.settings,other.cancel,other.environment,other.base_environment,other.sandbox,other.confine,other.tools,other.mcp,other.mcp_env,other.output,)
  return NotImplemented
 return __eq__

def _366(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('working_directory','phase','attempt','visit','system_prompt','context','timeout','model','decisions','settings','cancel','environment','base_environment','sandbox','confine','tools','mcp','mcp_env','output',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _367(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('working_directory','phase','attempt','visit','system_prompt','context','timeout','model','decisions','settings','cancel','environment','base_environment','sandbox','confine','tools','mcp','mcp_env','output',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _368():
 def __hash__(self):
  return hash((self.working_directory,self.phase,self.attempt,self.visit,self.system_prompt,self.context,self.timeout,self.model,self.decisions,self.settings,self.cancel,self.environment,self.base_environment,self.sandbox,self.confine,self.tools,self.mcp,self.mcp_env,self.output,))
 return __hash__

def _369(_type_ready, _type_detail, _type_depends_on_phase, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_detail, _dflt_depends_on_phase, _return_type):
 def __init__(self,ready:_type_ready,detail:_type_detail=_dflt_detail,depends_on_phase:_type_depends_on_phase=_dflt_depends_on_phase)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'ready',ready)
  __dataclass_builtins_object__.__setattr__(self,'detail',detail)
  __dataclass_builtins_object__.__setattr__(self,'depends_on_phase',depends_on_phase)
 return __init__

def _370():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(ready={self.ready!r}, detail={self.detail!r}, depends_on_phase={self.depends_on_phase!r})"
 return __repr__

def _371():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.ready,self.detail,self.depends_on_phase,)==(other.ready,other.detail,other.depends_on_phase,)
  return NotImplemented
 return __eq__

def _372(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('ready','detail','depends_on_phase',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _373(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('ready','detail','depends_on_phase',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _374():
 def __hash__(self):
  return hash((self.ready,self.detail,self.depends_on_phase,))
 return __hash__

def _375(_type_allowed_tools, _type_disallowed_tools, _type_mcp_tool_filters, _type_sandbox, _type_mcp, _type_tool_names, _type_tool_patterns, _type_tools_note, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_allowed_tools, _dflt_disallowed_tools, _dflt_mcp_tool_filters, _dflt_sandbox, _dflt_mcp, _dflt_tool_names, _dflt_tool_patterns, _dflt_tools_note, _return_type):
 def __init__(self,allowed_tools:_type_allowed_tools=_dflt_allowed_tools,disallowed_tools:_type_disallowed_tools=_dflt_disallowed_tools,mcp_tool_filters:_type_mcp_tool_filters=_dflt_mcp_tool_filters,sandbox:_type_sandbox=_dflt_sandbox,mcp:_type_mcp=_dflt_mcp,tool_names:_type_tool_names=_dflt_tool_names,tool_patterns:_type_tool_patterns=_dflt_tool_patterns,tools_note:_type_tools_note=_dflt_tools_note)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'allowed_tools',allowed_tools)
  __dataclass_builtins_object__.__setattr__(self,'disallowed_tools',disallowed_tools)
  __dataclass_builtins_object__.__setattr__(self,'mcp_tool_filters',mcp_tool_filters)
  __dataclass_builtins_object__.__setattr__(self,'sandbox',sandbox)
  __dataclass_builtins_object__.__setattr__(self,'mcp',mcp)
  __dataclass_builtins_object__.__setattr__(self,'tool_names',tool_names)
  __dataclass_builtins_object__.__setattr__(self,'tool_patterns',tool_patterns)
  __dataclass_builtins_object__.__setattr__(self,'tools_note',tools_note)
 return __init__

def _376():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(allowed_tools={self.allowed_tools!r}, disallowed_tools={self.disallowed_tools!r}, mcp_tool_filters={self.mcp_tool_filters!r}, sandbox={self.sandbox!r}, mcp={self.mcp!r}, tool_names={self.tool_names!r}, tool_patterns={self.tool_patterns!r}, tools_note={self.tools_note!r})"
 return __repr__

def _377():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.allowed_tools,self.disallowed_tools,self.mcp_tool_filters,self.sandbox,self.mcp,self.tool_names,self.tool_patterns,self.tools_note,)==(other.allowed_tools,other.disallowed_tools,other.mcp_tool_filters,other.sandbox,other.mcp,other.tool_names,other.tool_patterns,other.tools_note,)
  return NotImplemented
 return __eq__

def _378(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('allowed_tools','disallowed_tools','mcp_tool_filters','sandbox','mcp','tool_names','tool_patterns','tools_note',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _379(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('allowed_tools','disallowed_tools','mcp_tool_filters','sandbox','mcp','tool_names','tool_patterns','tools_note',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _380():
 def __hash__(self):
  return hash((self.allowed_tools,self.disallowed_tools,self.mcp_tool_filters,self.sandbox,self.mcp,self.tool_names,self.tool_patterns,self.tools_note,))
 return __hash__

def _381(_type_name, _type_factory, _type_summary, _type_phase_keys, _type_validate_phase, _type_error_codes, _type_capabilities, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_summary, _dflt_phase_keys, _dflt_validate_phase, _dflt_error_codes, _dflt_capabilities, _return_type):
 def __init__(self,name:_type_name,factory:_type_factory,summary:_type_summary=_dflt_summary,phase_keys:_type_phase_keys=_dflt_phase_keys,validate_phase:_type_validate_phase=_dflt_validate_phase,error_codes:_type_error_codes=_dflt_error_codes,capabilities:_type_capabilities=_dflt_capabilities)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'factory',factory)
  __dataclass_builtins_object__.__setattr__(self,'summary',summary)
  __dataclass_builtins_object__.__setattr__(self,'phase_keys',phase_keys)
  __dataclass_builtins_object__.__setattr__(self,'validate_phase',validate_phase)
  __dataclass_builtins_object__.__setattr__(self,'error_codes',error_codes)
  __dataclass_builtins_object__.__setattr__(self,'capabilities',capabilities)
 return __init__

def _382():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(name={self.name!r}, factory={self.factory!r}, summary={self.summary!r}, phase_keys={self.phase_keys!r}, validate_phase={self.validate_phase!r}, error_codes={self.error_codes!r}, capabilities={self.capabilities!r})"
 return __repr__

def _383():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.name,self.factory,self.summary,self.phase_keys,self.validate_phase,self.error_codes,self.capabilities,)==(other.name,other.factory,other.summary,other.phase_keys,other.validate_phase,other.error_codes,other.capabilities,)
  return NotImplemented
 return __eq__

def _384(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('name','factory','summary','phase_keys','validate_phase','error_codes','capabilities',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _385(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('name','factory','summary','phase_keys','validate_phase','error_codes','capabilities',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _386():
 def __hash__(self):
  return hash((self.name,self.factory,self.summary,self.phase_keys,self.validate_phase,self.error_codes,self.capabilities,))
 return __hash__

def _387(_type_started, _type_events, _type_tokens, _type_cost_usd, _type_child_steps, _type_message, _type_details, _type_output_tail, _type_pause_unread, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_started, _dflt_events, _dflt_tokens, _dflt_cost_usd, _dflt_child_steps, _dflt_message, _dflt_details, _dflt_output_tail, _dflt_pause_unread, _return_type):
 def __init__(self,started:_type_started=_HAS_DEFAULT_FACTORY,events:_type_events=_dflt_events,tokens:_type_tokens=_dflt_tokens,cost_usd:_type_cost_usd=_dflt_cost_usd,child_steps:_type_child_steps=_dflt_child_steps,message:_type_message=_dflt_message,details:_type_details=_HAS_DEFAULT_FACTORY,output_tail:_type_output_tail=_dflt_output_tail,pause_unread:_type_pause_unread=_dflt_pause_unread)->_return_type:
  self.started=_dflt_started() if started is _HAS_DEFAULT_FACTORY else started
  self.events=events
  self.tokens=tokens
  self.cost_usd=cost_usd
  self.child_steps=child_steps
  self.message=message
  self.details=_dflt_details() if details is _HAS_DEFAULT_FACTORY else details
  self.output_tail=output_tail
  self.pause_unread=pause_unread
 return __init__

def _388():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(started={self.started!r}, events={self.events!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, child_steps={self.child_steps!r}, message={self.message!r}, details={self.details!r}, output_tail={self.output_tail!r}, pause_unread={self.pause_unread!r})"
 return __repr__

def _389():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.started,self.events,self.tokens,self.cost_usd,self.child_steps,self.message,self.details,self.output_tail,self.pause_unread,)==(other.started,other.events,other.tokens,other.cost_usd,other.child_steps,other.message,other.details,other.output_tail,other.pause_unread,)
  return NotImplemented
 return __eq__

def _390(_type_store, _type_run_id, _type_workflow, _type_worktree, _type_worktrees, _type_registry, _type_redactor, _type_environ, _type_on_event, _type_dry_run_commands, _type_pending, _type_cancel, _type_branch, _type_clock, _type_files, _type_pull_request, _type_describe, _type_environments, _type_children, _type_prepared, _type_flusher, _type_deadlines, _type_run_thread, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_on_event, _dflt_dry_run_commands, _dflt_pending, _dflt_cancel, _dflt_branch, _dflt_clock, _dflt_files, _dflt_pull_request, _dflt_describe, _dflt_environments, _dflt_children, _dflt_prepared, _dflt_flusher, _dflt_deadlines, _dflt_run_thread, _return_type):
 def __init__(self,store:_type_store,run_id:_type_run_id,workflow:_type_workflow,worktree:_type_worktree,worktrees:_type_worktrees,registry:_type_registry,redactor:_type_redactor,environ:_type_environ,on_event:_type_on_event=_dflt_on_event,dry_run_commands:_type_dry_run_commands=_dflt_dry_run_commands,pending:_type_pending=_HAS_DEFAULT_FACTORY,cancel:_type_cancel=_HAS_DEFAULT_FACTORY,branch:_type_branch=_dflt_branch,clock:_type_clock=_dflt_clock,files:_type_files=_dflt_files,pull_request:_type_pull_request=_dflt_pull_request,describe:_type_describe=_dflt_describe,environments:_type_environments=_HAS_DEFAULT_FACTORY,children:_type_children=_dflt_children,prepared:_type_prepared=_HAS_DEFAULT_FACTORY,flusher:_type_flusher=_dflt_flusher,deadlines:_type_deadlines=_dflt_deadlines,run_thread:_type_run_thread=_dflt_run_thread)->_return_type:
  self.store=store
  self.run_id=run_id
  self.workflow=workflow
  self.worktree=worktree
  self.worktrees=worktrees
  self.registry=registry
  self.redactor=redactor
  self.environ=environ
  self.on_event=on_event
  self.dry_run_commands=dry_run_commands
  self.pending=_dflt_pending() if pending is _HAS_DEFAULT_FACTORY else pending
  self.cancel=_dflt_cancel() if cancel is _HAS_DEFAULT_FACTORY else cancel
  self.branch=branch
  self.clock=clock
  self.files=files
  self.pull_request=pull_request
  self.describe=describe
  self.environments=_dflt_environments() if environments is _HAS_DEFAULT_FACTORY else environments
  self.children=children
  self.prepared=_dflt_prepared() if prepared is _HAS_DEFAULT_FACTORY else prepared
  self.flusher=flusher
  self.deadlines=deadlines
  self.run_thread=run_thread
 return __init__

def _391():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(store={self.store!r}, run_id={self.run_id!r}, workflow={self.workflow!r}, worktree={self.worktree!r}, worktrees={self.worktrees!r}, registry={self.registry!r}, redactor={self.redactor!r}, environ={self.environ!r}, on_event={self.on_event!r}, dry_run_commands={self.dry_run_commands!r}, pending={self.pending!r}, cancel={self.cancel!r}, branch={self.branch!r}, clock={self.clock!r}, files={self.files!r}, pull_request={self.pull_request!r}, describe={self.describe!r}, environments={self.environments!r}, children={self.children!r}, prepared={self.prepared!r}, flusher={self.flusher!r}, deadlines={self.deadlines!r}, run_thread={self.run_thread!r})"
 return __repr__

def _392():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.store,self.run_id,self.workflow,self.worktree,self.worktrees,self.registry,self.redactor,self.environ,self.on_event,self.dry_run_commands,self.pending,self.cancel,self.branch,self.clock,self.files,self.pull_request,self.describe,self.environments,self.children,self.prepared,self.flusher,self.deadlines,self.run_thread,)==(other.store,other.run_id,other.workflow,other.worktree,other.worktrees,other.registry,other.redactor,other.environ,other.on_event,other.dry_run_commands,other.pending,other.cancel,other.branch,other.clock,other.files,other.pull_request,other.describe,other.environments,other.children,other.prepared,other.flusher,other.deadlines,other.run_thread,)
  return NotImplemented
 return __eq__

def _393(_type_events, _type_attempt, _type_stats, _type_joined, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_attempt, _dflt_stats, _dflt_joined, _return_type):
 def __init__(self,events:_type_events,attempt:_type_attempt=_dflt_attempt,stats:_type_stats=_dflt_stats,joined:_type_joined=_dflt_joined)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'events',events)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'stats',stats)
  __dataclass_builtins_object__.__setattr__(self,'joined',joined)
 return __init__

def _394():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(events={self.events!r}, attempt={self.attempt!r}, stats={self.stats!r}, joined={self.joined!r})"
 return __repr__

def _395():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.events,self.attempt,self.stats,self.joined,)==(other.events,other.attempt,other.stats,other.joined,)
  return NotImplemented
 return __eq__

def _396(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('events','attempt','stats','joined',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _397(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('events','attempt','stats','joined',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _398():
 def __hash__(self):
  return hash((self.events,self.attempt,self.stats,self.joined,))
 return __hash__

def _399(_type_node_id, _type_first, _type_reports, _type_start_sha, _type_seal, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,node_id:_type_node_id,first:_type_first,reports:_type_reports,start_sha:_type_start_sha,seal:_type_seal)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'node_id',node_id)
  __dataclass_builtins_object__.__setattr__(self,'first',first)
  __dataclass_builtins_object__.__setattr__(self,'reports',reports)
  __dataclass_builtins_object__.__setattr__(self,'start_sha',start_sha)
  __dataclass_builtins_object__.__setattr__(self,'seal',seal)
 return __init__

def _400():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(node_id={self.node_id!r}, first={self.first!r}, reports={self.reports!r}, start_sha={self.start_sha!r}, seal={self.seal!r})"
 return __repr__

def _401():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.node_id,self.first,self.reports,self.start_sha,self.seal,)==(other.node_id,other.first,other.reports,other.start_sha,other.seal,)
  return NotImplemented
 return __eq__

def _402(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('node_id','first','reports','start_sha','seal',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _403(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('node_id','first','reports','start_sha','seal',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _404():
 def __hash__(self):
  return hash((self.node_id,self.first,self.reports,self.start_sha,self.seal,))
 return __hash__

def _405(_type_phase, _type_attempt, _type_branch, _type_stats, _type_task, _type_wake, _type_stopped, _type_joined, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_task, _dflt_wake, _dflt_stopped, _dflt_joined, _return_type):
 def __init__(self,phase:_type_phase,attempt:_type_attempt,branch:_type_branch,stats:_type_stats,task:_type_task=_dflt_task,wake:_type_wake=_HAS_DEFAULT_FACTORY,stopped:_type_stopped=_dflt_stopped,joined:_type_joined=_dflt_joined)->_return_type:
  self.phase=phase
  self.attempt=attempt
  self.branch=branch
  self.stats=stats
  self.task=task
  self.wake=_dflt_wake() if wake is _HAS_DEFAULT_FACTORY else wake
  self.stopped=stopped
  self.joined=joined
 return __init__

def _406():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase={self.phase!r}, attempt={self.attempt!r}, branch={self.branch!r}, stats={self.stats!r}, task={self.task!r}, wake={self.wake!r}, stopped={self.stopped!r}, joined={self.joined!r})"
 return __repr__

def _407():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase,self.attempt,self.branch,self.stats,self.task,self.wake,self.stopped,self.joined,)==(other.phase,other.attempt,other.branch,other.stats,other.task,other.wake,other.stopped,other.joined,)
  return NotImplemented
 return __eq__

def _408(_type_attempt, _type_kind, _type_message, _type_retry_after, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,attempt:_type_attempt,kind:_type_kind,message:_type_message,retry_after:_type_retry_after)->_return_type:
  self.attempt=attempt
  self.kind=kind
  self.message=message
  self.retry_after=retry_after
 return __init__

def _409():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(attempt={self.attempt!r}, kind={self.kind!r}, message={self.message!r}, retry_after={self.retry_after!r})"
 return __repr__

def _410():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.attempt,self.kind,self.message,self.retry_after,)==(other.attempt,other.kind,other.message,other.retry_after,)
  return NotImplemented
 return __eq__

def _411(_type_remote, _type_base, _type_draft, _type_provider, _type_at_end, _type_required, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_at_end, _dflt_required, _return_type):
 def __init__(self,remote:_type_remote,base:_type_base,draft:_type_draft,provider:_type_provider,at_end:_type_at_end=_dflt_at_end,required:_type_required=_dflt_required)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'remote',remote)
  __dataclass_builtins_object__.__setattr__(self,'base',base)
  __dataclass_builtins_object__.__setattr__(self,'draft',draft)
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
  __dataclass_builtins_object__.__setattr__(self,'at_end',at_end)
  __dataclass_builtins_object__.__setattr__(self,'required',required)
 return __init__

def _412():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(remote={self.remote!r}, base={self.base!r}, draft={self.draft!r}, provider={self.provider!r}, at_end={self.at_end!r}, required={self.required!r})"
 return __repr__

def _413():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.remote,self.base,self.draft,self.provider,self.at_end,self.required,)==(other.remote,other.base,other.draft,other.provider,other.at_end,other.required,)
  return NotImplemented
 return __eq__

def _414(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('remote','base','draft','provider','at_end','required',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _415(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('remote','base','draft','provider','at_end','required',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _416():
 def __hash__(self):
  return hash((self.remote,self.base,self.draft,self.provider,self.at_end,self.required,))
 return __hash__

def _417(_type_event, _type_new, _type_effects, _type_measured, _type_held, _type_error, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_effects, _dflt_measured, _dflt_held, _dflt_error, _return_type):
 def __init__(self,event:_type_event,new:_type_new,effects:_type_effects=_dflt_effects,measured:_type_measured=_HAS_DEFAULT_FACTORY,held:_type_held=_HAS_DEFAULT_FACTORY,error:_type_error=_dflt_error)->_return_type:
  self.event=event
  self.new=new
  self.effects=effects
  self.measured=_dflt_measured() if measured is _HAS_DEFAULT_FACTORY else measured
  self.held=_dflt_held() if held is _HAS_DEFAULT_FACTORY else held
  self.error=error
 return __init__

def _418():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(event={self.event!r}, new={self.new!r}, effects={self.effects!r}, measured={self.measured!r}, held={self.held!r}, error={self.error!r})"
 return __repr__

def _419():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.event,self.new,self.effects,self.measured,self.held,self.error,)==(other.event,other.new,other.effects,other.measured,other.held,other.error,)
  return NotImplemented
 return __eq__

def _420(_type_inputs, _type_base, _type_resolved_base, _type_branch, _type_branch_template, _type_keep_worktree, _type_approve_all, _type_dry_run, _type_dry_run_scope, _type_pull_request, _type_pr_branch, _type_environ, _type_clock, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_inputs, _dflt_base, _dflt_resolved_base, _dflt_branch, _dflt_branch_template, _dflt_keep_worktree, _dflt_approve_all, _dflt_dry_run, _dflt_dry_run_scope, _dflt_pull_request, _dflt_pr_branch, _dflt_environ, _dflt_clock, _return_type):
 def __init__(self,inputs:_type_inputs=_HAS_DEFAULT_FACTORY,base:_type_base=_dflt_base,resolved_base:_type_resolved_base=_dflt_resolved_base,branch:_type_branch=_dflt_branch,branch_template:_type_branch_template=_dflt_branch_template,keep_worktree:_type_keep_worktree=_dflt_keep_worktree,approve_all:_type_approve_all=_dflt_approve_all,dry_run:_type_dry_run=_dflt_dry_run,dry_run_scope:_type_dry_run_scope=_dflt_dry_run_scope,pull_request:_type_pull_request=_dflt_pull_request,pr_branch:_type_pr_branch=_dflt_pr_branch,environ:_type_environ=_HAS_DEFAULT_FACTORY,clock:_type_clock=_dflt_clock)->_return_type:
  self.inputs=_dflt_inputs() if inputs is _HAS_DEFAULT_FACTORY else inputs
  self.base=base
  self.resolved_base=resolved_base
  self.branch=branch
  self.branch_template=branch_template
  self.keep_worktree=keep_worktree
  self.approve_all=approve_all
  self.dry_run=dry_run
  self.dry_run_scope=dry_run_scope
  self.pull_request=pull_request
  self.pr_branch=pr_branch
  self.environ=_dflt_environ() if environ is _HAS_DEFAULT_FACTORY else environ
  self.clock=clock
 return __init__

def _421():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(inputs={self.inputs!r}, base={self.base!r}, resolved_base={self.resolved_base!r}, branch={self.branch!r}, branch_template={self.branch_template!r}, keep_worktree={self.keep_worktree!r}, approve_all={self.approve_all!r}, dry_run={self.dry_run!r}, dry_run_scope={self.dry_run_scope!r}, pull_request={self.pull_request!r}, pr_branch={self.pr_branch!r}, environ={self.environ!r}, clock={self.clock!r})"
 return __repr__

def _422():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.inputs,self.base,self.resolved_base,self.branch,self.branch_template,self.keep_worktree,self.approve_all,self.dry_run,self.dry_run_scope,self.pull_request,self.pr_branch,self.environ,self.clock,)==(other.inputs,other.base,other.resolved_base,other.branch,other.branch_template,other.keep_worktree,other.approve_all,other.dry_run,other.dry_run_scope,other.pull_request,other.pr_branch,other.environ,other.clock,)
  return NotImplemented
 return __eq__

def _423(_type_store, _type_run_id, _type_owner, _type_ttl, _type_runtime, _type__edge_ids, _type__state, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt__edge_ids, _dflt__state, _return_type):
 def __init__(self,store:_type_store,run_id:_type_run_id,owner:_type_owner,ttl:_type_ttl,runtime:_type_runtime,_edge_ids:_type__edge_ids=_dflt__edge_ids,_state:_type__state=_dflt__state)->_return_type:
  self.store=store
  self.run_id=run_id
  self.owner=owner
  self.ttl=ttl
  self.runtime=runtime
  self._edge_ids=_edge_ids
  self._state=_state
 return __init__

def _424():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(store={self.store!r}, run_id={self.run_id!r}, owner={self.owner!r}, ttl={self.ttl!r}, runtime={self.runtime!r}, _edge_ids={self._edge_ids!r}, _state={self._state!r})"
 return __repr__

def _425():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.store,self.run_id,self.owner,self.ttl,self.runtime,self._edge_ids,self._state,)==(other.store,other.run_id,other.owner,other.ttl,other.runtime,other._edge_ids,other._state,)
  return NotImplemented
 return __eq__

def _426(_type_path, _type_full, _type_size, _type_mode, _type_mtime_ns, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,path:_type_path,full:_type_full,size:_type_size,mode:_type_mode,mtime_ns:_type_mtime_ns)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'path',path)
  __dataclass_builtins_object__.__setattr__(self,'full',full)
  __dataclass_builtins_object__.__setattr__(self,'size',size)
  __dataclass_builtins_object__.__setattr__(self,'mode',mode)
  __dataclass_builtins_object__.__setattr__(self,'mtime_ns',mtime_ns)
 return __init__

def _427():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(path={self.path!r}, full={self.full!r}, size={self.size!r}, mode={self.mode!r}, mtime_ns={self.mtime_ns!r})"
 return __repr__

def _428():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.path,self.full,self.size,self.mode,self.mtime_ns,)==(other.path,other.full,other.size,other.mode,other.mtime_ns,)
  return NotImplemented
 return __eq__

def _429(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('path','full','size','mode','mtime_ns',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _430(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('path','full','size','mode','mtime_ns',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _431():
 def __hash__(self):
  return hash((self.path,self.full,self.size,self.mode,self.mtime_ns,))
 return __hash__

def _432(_type_run_id, _type_root, _type_limit, _type_memory, _type__lock, _type__empty, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_memory, _dflt__lock, _dflt__empty, _return_type):
 def __init__(self,run_id:_type_run_id,root:_type_root,limit:_type_limit,memory:_type_memory=_dflt_memory,_lock:_type__lock=_HAS_DEFAULT_FACTORY,_empty:_type__empty=_HAS_DEFAULT_FACTORY)->_return_type:
  self.run_id=run_id
  self.root=root
  self.limit=limit
  self.memory=memory
  self._lock=_dflt__lock() if _lock is _HAS_DEFAULT_FACTORY else _lock
  self._empty=_dflt__empty() if _empty is _HAS_DEFAULT_FACTORY else _empty
 return __init__

def _433():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(run_id={self.run_id!r}, root={self.root!r}, limit={self.limit!r}, memory={self.memory!r})"
 return __repr__

def _434():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.run_id,self.root,self.limit,self.memory,self._lock,self._empty,)==(other.run_id,other.root,other.limit,other.memory,other._lock,other._empty,)
  return NotImplemented
 return __eq__

def _435(_type_bwrap, _type_worktree, _type_git_dirs, _type_tmp, _type_network, _type_writable, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_network, _dflt_writable, _return_type):
 def __init__(self,bwrap:_type_bwrap,worktree:_type_worktree,git_dirs:_type_git_dirs,tmp:_type_tmp,network:_type_network=_dflt_network,writable:_type_writable=_dflt_writable)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'bwrap',bwrap)
  __dataclass_builtins_object__.__setattr__(self,'worktree',worktree)
  __dataclass_builtins_object__.__setattr__(self,'git_dirs',git_dirs)
  __dataclass_builtins_object__.__setattr__(self,'tmp',tmp)
  __dataclass_builtins_object__.__setattr__(self,'network',network)
  __dataclass_builtins_object__.__setattr__(self,'writable',writable)
 return __init__

def _436():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(bwrap={self.bwrap!r}, worktree={self.worktree!r}, git_dirs={self.git_dirs!r}, tmp={self.tmp!r}, network={self.network!r}, writable={self.writable!r})"
 return __repr__

def _437():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.bwrap,self.worktree,self.git_dirs,self.tmp,self.network,self.writable,)==(other.bwrap,other.worktree,other.git_dirs,other.tmp,other.network,other.writable,)
  return NotImplemented
 return __eq__

def _438(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('bwrap','worktree','git_dirs','tmp','network','writable',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _439(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('bwrap','worktree','git_dirs','tmp','network','writable',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _440():
 def __hash__(self):
  return hash((self.bwrap,self.worktree,self.git_dirs,self.tmp,self.network,self.writable,))
 return __hash__

def _441(_type_decision, _type_report, _type_violations, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,decision:_type_decision,report:_type_report,violations:_type_violations)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'report',report)
  __dataclass_builtins_object__.__setattr__(self,'violations',violations)
 return __init__

def _442():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(decision={self.decision!r}, report={self.report!r}, violations={self.violations!r})"
 return __repr__

def _443():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.decision,self.report,self.violations,)==(other.decision,other.report,other.violations,)
  return NotImplemented
 return __eq__

def _444(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('decision','report','violations',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _445(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('decision','report','violations',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _446():
 def __hash__(self):
  return hash((self.decision,self.report,self.violations,))
 return __hash__

def _447(_type_version, _type_name, _type_apply, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,version:_type_version,name:_type_name,apply:_type_apply)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'version',version)
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'apply',apply)
 return __init__

def _448():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(version={self.version!r}, name={self.name!r}, apply={self.apply!r})"
 return __repr__

def _449():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.version,self.name,self.apply,)==(other.version,other.name,other.apply,)
  return NotImplemented
 return __eq__

def _450(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('version','name','apply',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _451(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('version','name','apply',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _452():
 def __hash__(self):
  return hash((self.version,self.name,self.apply,))
 return __hash__

def _453(_type_host, _type_pid, _type_start, _type_token, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,host:_type_host,pid:_type_pid,start:_type_start,token:_type_token)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'host',host)
  __dataclass_builtins_object__.__setattr__(self,'pid',pid)
  __dataclass_builtins_object__.__setattr__(self,'start',start)
  __dataclass_builtins_object__.__setattr__(self,'token',token)
 return __init__

def _454():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(host={self.host!r}, pid={self.pid!r}, start={self.start!r}, token={self.token!r})"
 return __repr__

def _455():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.host,self.pid,self.start,self.token,)==(other.host,other.pid,other.start,other.token,)
  return NotImplemented
 return __eq__

def _456(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('host','pid','start','token',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _457(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('host','pid','start','token',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _458():
 def __hash__(self):
  return hash((self.host,self.pid,self.start,self.token,))
 return __hash__

def _459(_type_workflow_run_id, _type_run_node_id, _type_attempt, _type_sequence, _type_event_type, _type_content, _type_timestamp, _type_metadata, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_content, _dflt_timestamp, _dflt_metadata, _return_type):
 def __init__(self,workflow_run_id:_type_workflow_run_id,run_node_id:_type_run_node_id,attempt:_type_attempt,sequence:_type_sequence,event_type:_type_event_type,content:_type_content=_dflt_content,timestamp:_type_timestamp=_dflt_timestamp,metadata:_type_metadata=_dflt_metadata)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'workflow_run_id',workflow_run_id)
  __dataclass_builtins_object__.__setattr__(self,'run_node_id',run_node_id)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'sequence',sequence)
  __dataclass_builtins_object__.__setattr__(self,'event_type',event_type)
  __dataclass_builtins_object__.__setattr__(self,'content',content)
  __dataclass_builtins_object__.__setattr__(self,'timestamp',timestamp)
  __dataclass_builtins_object__.__setattr__(self,'metadata',metadata)
 return __init__

def _460():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(workflow_run_id={self.workflow_run_id!r}, run_node_id={self.run_node_id!r}, attempt={self.attempt!r}, sequence={self.sequence!r}, event_type={self.event_type!r}, content={self.content!r}, timestamp={self.timestamp!r}, metadata={self.metadata!r})"
 return __repr__

def _461():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.workflow_run_id,self.run_node_id,self.attempt,self.sequence,self.event_type,self.content,self.timestamp,self.metadata,)==(other.workflow_run_id,other.run_node_id,other.attempt,other.sequence,other.event_type,other.content,other.timestamp,other.metadata,)
  return NotImplemented
 return __eq__

def _462(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('workflow_run_id','run_node_id','attempt','sequence','event_type','content','timestamp','metadata',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _463(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('workflow_run_id','run_node_id','attempt','sequence','event_type','content','timestamp','metadata',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _464():
 def __hash__(self):
  return hash((self.workflow_run_id,self.run_node_id,self.attempt,self.sequence,self.event_type,self.content,self.timestamp,self.metadata,))
 return __hash__

def _465(_type_id, _type_run_id, _type_tree_node_id, _type_node_key, _type_sequence_index, _type_status, _type_attempt, _type_visits, _type_decision, _type_exit_code, _type_tokens, _type_cost_usd, _type_lease_owner, _type_lease_expires_at, _type_started_at, _type_completed_at, _type_updated_at, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,id:_type_id,run_id:_type_run_id,tree_node_id:_type_tree_node_id,node_key:_type_node_key,sequence_index:_type_sequence_index,status:_type_status,attempt:_type_attempt,visits:_type_visits,decision:_type_decision,exit_code:_type_exit_code,tokens:_type_tokens,cost_usd:_type_cost_usd,lease_owner:_type_lease_owner,lease_expires_at:_type_lease_expires_at,started_at:_type_started_at,completed_at:_type_completed_at,updated_at:_type_updated_at)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'id',id)
  __dataclass_builtins_object__.__setattr__(self,'run_id',run_id)
  __dataclass_builtins_object__.__setattr__(self,'tree_node_id',tree_node_id)
  __dataclass_builtins_object__.__setattr__(self,'node_key',node_key)
  __dataclass_builtins_object__.__setattr__(self,'sequence_index',sequence_index)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'attempt',attempt)
  __dataclass_builtins_object__.__setattr__(self,'visits',visits)
  __dataclass_builtins_object__.__setattr__(self,'decision',decision)
  __dataclass_builtins_object__.__setattr__(self,'exit_code',exit_code)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'cost_usd',cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'lease_owner',lease_owner)
  __dataclass_builtins_object__.__setattr__(self,'lease_expires_at',lease_expires_at)
  __dataclass_builtins_object__.__setattr__(self,'started_at',started_at)
  __dataclass_builtins_object__.__setattr__(self,'completed_at',completed_at)
  __dataclass_builtins_object__.__setattr__(self,'updated_at',updated_at)
 return __init__

def _466():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(id={self.id!r}, run_id={self.run_id!r}, tree_node_id={self.tree_node_id!r}, node_key={self.node_key!r}, sequence_index={self.sequence_index!r}, status={self.status!r}, attempt={self.attempt!r}, visits={self.visits!r}, decision={self.decision!r}, exit_code={self.exit_code!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, lease_owner={self.lease_owner!r}, lease_expires_at={self.lease_expires_at!r}, started_at={self.started_at!r}, completed_at={self.completed_at!r}, updated_at={self.updated_at!r})"
 return __repr__

def _467():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.run_id,self.tree_node_id,self.node_key,self.sequence_index,self.status,self.attempt,self.visits,self.decision,self.exit_code,self.tokens,self.cost_usd,self.lease_owner,self.lease_expires_at,self.started_at,self.completed_at,self.updated_at,)==(other.id,other.run_id,other.tree_node_id,other.node_key,other.sequence_index,other.status,other.attempt,other.visits,other.decision,other.exit_code,other.tokens,other.cost_usd,other.lease_owner,other.lease_expires_at,other.started_at,other.completed_at,other.updated_at,)
  return NotImplemented
 return __eq__

def _468(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('id','run_id','tree_node_id','node_key','sequence_index','status','attempt','visits','decision','exit_code','tokens','cost_usd','lease_owner','lease_expires_at','started_at','completed_at','updated_at',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _469(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('id','run_id','tree_node_id','node_key','sequence_index','status','attempt','visits','decision','exit_code','tokens','cost_usd','lease_owner','lease_expires_at','started_at','completed_at','updated_at',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _470():
 def __hash__(self):
  return hash((self.id,self.run_id,self.tree_node_id,self.node_key,self.sequence_index,self.status,self.attempt,self.visits,self.decision,self.exit_code,self.tokens,self.cost_usd,self.lease_owner,self.lease_expires_at,self.started_at,self.completed_at,self.updated_at,))
 return __hash__

def _471(_type_id, _type_tree_id, _type_tree_key, _type_tree_version, _type_status, _type_reason, _type_inputs, _type_branch, _type_base_sha, _type_head_sha, _type_base_ref, _type_worktree_path, _type_repo_path, _type_pr_url, _type_tokens, _type_cost_usd, _type_steps, _type_pause_requested, _type_cancel_requested, _type_lease_owner, _type_lease_expires_at, _type_created_at, _type_started_at, _type_completed_at, _type_updated_at, _type_nodes, _type_priority, _type_requires, _type_queued, _type_request, _type_repo_name, _type_repo_url, _type_repo_root, _type_wake_at, _type_parent_run_id, _type_parent_step, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_nodes, _dflt_priority, _dflt_requires, _dflt_queued, _dflt_request, _dflt_repo_name, _dflt_repo_url, _dflt_repo_root, _dflt_wake_at, _dflt_parent_run_id, _dflt_parent_step, _return_type):
 def __init__(self,id:_type_id,tree_id:_type_tree_id,tree_key:_type_tree_key,tree_version:_type_tree_version,status:_type_status,reason:_type_reason,inputs:_type_inputs,branch:_type_branch,base_sha:_type_base_sha,head_sha:_type_head_sha,base_ref:_type_base_ref,worktree_path:_type_worktree_path,repo_path:_type_repo_path,pr_url:_type_pr_url,tokens:_type_tokens,cost_usd:_type_cost_usd,steps:_type_steps,pause_requested:_type_pause_requested,cancel_requested:_type_cancel_requested,lease_owner:_type_lease_owner,lease_expires_at:_type_lease_expires_at,created_at:_type_created_at,started_at:_type_started_at,completed_at:_type_completed_at,updated_at:_type_updated_at,nodes:_type_nodes=_dflt_nodes,priority:_type_priority=_dflt_priority,requires:_type_requires=_dflt_requires,queued:_type_queued=_dflt_queued,request:_type_request=_dflt_request,repo_name:_type_repo_name=_dflt_repo_name,repo_url:_type_repo_url=_dflt_repo_url,repo_root:_type_repo_root=_dflt_repo_root,wake_at:_type_wake_at=_dflt_wake_at,parent_run_id:_type_parent_run_id=_dflt_parent_run_id,parent_step:_type_parent_step=_dflt_parent_step)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'id',id)
  __dataclass_builtins_object__.__setattr__(self,'tree_id',tree_id)
  __dataclass_builtins_object__.__setattr__(self,'tree_key',tree_key)
  __dataclass_builtins_object__.__setattr__(self,'tree_version',tree_version)
  __dataclass_builtins_object__.__setattr__(self,'status',status)
  __dataclass_builtins_object__.__setattr__(self,'reason',reason)
  __dataclass_builtins_object__.__setattr__(self,'inputs',inputs)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'base_sha',base_sha)
  __dataclass_builtins_object__.__setattr__(self,'head_sha',head_sha)
  __dataclass_builtins_object__.__setattr__(self,'base_ref',base_ref)
  __dataclass_builtins_object__.__setattr__(self,'worktree_path',worktree_path)
  __dataclass_builtins_object__.__setattr__(self,'repo_path',repo_path)
  __dataclass_builtins_object__.__setattr__(self,'pr_url',pr_url)
  __dataclass_builtins_object__.__setattr__(self,'tokens',tokens)
  __dataclass_builtins_object__.__setattr__(self,'cost_usd',cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'steps',steps)
  __dataclass_builtins_object__.__setattr__(self,'pause_requested',pause_requested)
  __dataclass_builtins_object__.__setattr__(self,'cancel_requested',cancel_requested)
  __dataclass_builtins_object__.__setattr__(self,'lease_owner',lease_owner)
  __dataclass_builtins_object__.__setattr__(self,'lease_expires_at',lease_expires_at)
  __dataclass_builtins_object__.__setattr__(self,'created_at',created_at)
  __dataclass_builtins_object__.__setattr__(self,'started_at',started_at)
  __dataclass_builtins_object__.__setattr__(self,'completed_at',completed_at)
  __dataclass_builtins_object__.__setattr__(self,'updated_at',updated_at)
  __dataclass_builtins_object__.__setattr__(self,'nodes',nodes)
  __dataclass_builtins_object__.__setattr__(self,'priority',priority)
  __dataclass_builtins_object__.__setattr__(self,'requires',requires)
  __dataclass_builtins_object__.__setattr__(self,'queued',queued)
  __dataclass_builtins_object__.__setattr__(self,'request',request)
  __dataclass_builtins_object__.__setattr__(self,'repo_name',repo_name)
  __dataclass_builtins_object__.__setattr__(self,'repo_url',repo_url)
  __dataclass_builtins_object__.__setattr__(self,'repo_root',repo_root)
  __dataclass_builtins_object__.__setattr__(self,'wake_at',wake_at)
  __dataclass_builtins_object__.__setattr__(self,'parent_run_id',parent_run_id)
  __dataclass_builtins_object__.__setattr__(self,'parent_step',parent_step)
 return __init__

def _472():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(id={self.id!r}, tree_id={self.tree_id!r}, tree_key={self.tree_key!r}, tree_version={self.tree_version!r}, status={self.status!r}, reason={self.reason!r}, inputs={self.inputs!r}, branch={self.branch!r}, base_sha={self.base_sha!r}, head_sha={self.head_sha!r}, base_ref={self.base_ref!r}, worktree_path={self.worktree_path!r}, repo_path={self.repo_path!r}, pr_url={self.pr_url!r}, tokens={self.tokens!r}, cost_usd={self.cost_usd!r}, steps={self.steps!r}, pause_requested={self.pause_requested!r}, cancel_requested={self.cancel_requested!r}, lease_owner={self.lease_owner!r}, lease_expires_at={self.lease_expires_at!r}, created_at={self.created_at!r}, started_at={self.started_at!r}, completed_at={self.completed_at!r}, updated_at={self.updated_at!r}, nodes={self.nodes!r}, priority={self.priority!r}, requires={self.requires!r}, queued={self.queued!r}, request={self.request!r}, repo_name={self.repo_name!r}, repo_url={self.repo_url!r}, repo_root={self.repo_root!r}, wake_at={self.wake_at!r}, parent_run_id={self.parent_run_id!r}, parent_step={self.parent_step!r})"
 return __repr__

def _473():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.id,self.tree_id,self.tree_key,self.tree_version,self.status,self.reason,self.inputs,self.branch,self.base_sha,self.head_sha,self.base_ref,self.worktree_path,self.repo_path,self.pr_url,self.tokens,self.cost_usd,self.steps,self.pause_requested,self.cancel_requested,self.lease_owner,self.lease_expires_at,self.created_at,self.started_at,self.completed_at,self.updated_at,self.nodes,self.priority,self.requires,self.queued,self.request,self.repo_name,self.repo_url,self.repo_root,self.wake_at,self.parent_run_id,self.parent_step,)==(other.id,other.tree_id,other.tree_key,other.tree_version,other.status,other.reason,other.inputs,other.branch,other.base_sha,other.head_sha,other.base_ref,other.worktree_path,other.repo_path,other.pr_url,other.tokens,other.cost_usd,other.steps,other.pause_requested,other.cancel_requested,other.lease_owner,other.lease_expires_at,other.created_at,other.started_at,other.completed_at,other.updated_at,other.nodes,other.priority,other.requires,other.queued,other.request,other.repo_name,other.repo_url,other.repo_root,other.wake_at,other.parent_run_id,other.parent_step,)
  return NotImplemented
 return __eq__

def _474(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('id','tree_id','tree_key','tree_version','status','reason','inputs','branch','base_sha','head_sha','base_ref','worktree_path','repo_path','pr_url','tokens','cost_usd','steps','pause_requested','cancel_requested','lease_owner','lease_expires_at','created_at','started_at','completed_at','updated_at','nodes','priority','requires','queued','request','repo_name','repo_url','repo_root','wake_at','parent_run_id','parent_step',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _475(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('id','tree_id','tree_key','tree_version','status','reason','inputs','branch','base_sha','head_sha','base_ref','worktree_path','repo_path','pr_url','tokens','cost_usd','steps','pause_requested','cancel_requested','lease_owner','lease_expires_at','created_at','started_at','completed_at','updated_at','nodes','priority','requires','queued','request','repo_name','repo_url','repo_root','wake_at','parent_run_id','parent_step',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _476():
 def __hash__(self):
  return hash((self.id,self.tree_id,self.tree_key,self.tree_version,self.status,self.reason,self.inputs,self.branch,self.base_sha,self.head_sha,self.base_ref,self.worktree_path,self.repo_path,self.pr_url,self.tokens,self.cost_usd,self.steps,self.pause_requested,self.cancel_requested,self.lease_owner,self.lease_expires_at,self.created_at,self.started_at,self.completed_at,self.updated_at,self.nodes,self.priority,self.requires,self.queued,self.request,self.repo_name,self.repo_url,self.repo_root,self.wake_at,self.parent_run_id,self.parent_step,))
 return __hash__

def _477(_type_label, _type_branch, _type_started, _type_last_output, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_last_output, _return_type):
 def __init__(self,label:_type_label,branch:_type_branch,started:_type_started,last_output:_type_last_output=_HAS_DEFAULT_FACTORY)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'label',label)
  __dataclass_builtins_object__.__setattr__(self,'branch',branch)
  __dataclass_builtins_object__.__setattr__(self,'started',started)
  __dataclass_builtins_object__.__setattr__(self,'last_output',_dflt_last_output() if last_output is _HAS_DEFAULT_FACTORY else last_output)
 return __init__

def _478():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(label={self.label!r}, branch={self.branch!r}, started={self.started!r}, last_output={self.last_output!r})"
 return __repr__

def _479():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.label,self.branch,self.started,self.last_output,)==(other.label,other.branch,other.started,other.last_output,)
  return NotImplemented
 return __eq__

def _480(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('label','branch','started','last_output',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _481(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('label','branch','started','last_output',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _482():
 def __hash__(self):
  return hash((self.label,self.branch,self.started,self.last_output,))
 return __hash__

def _483(_type_patterns, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,patterns:_type_patterns)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'patterns',patterns)
 return __init__

def _484():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(patterns={self.patterns!r})"
 return __repr__

def _485():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.patterns,)==(other.patterns,)
  return NotImplemented
 return __eq__

def _486(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('patterns',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _487(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('patterns',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _488():
 def __hash__(self):
  return hash((self.patterns,))
 return __hash__

def _489(_type_start, _type_nodes, _type_edges, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,start:_type_start,nodes:_type_nodes,edges:_type_edges)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'start',start)
  __dataclass_builtins_object__.__setattr__(self,'nodes',nodes)
  __dataclass_builtins_object__.__setattr__(self,'edges',edges)
 return __init__

def _490():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(start={self.start!r}, nodes={self.nodes!r}, edges={self.edges!r})"
 return __repr__

def _491():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.start,self.nodes,self.edges,)==(other.start,other.nodes,other.edges,)
  return NotImplemented
 return __eq__

def _492(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('start','nodes','edges',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _493(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('start','nodes','edges',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _494():
 def __hash__(self):
  return hash((self.start,self.nodes,self.edges,))
 return __hash__

def _495(_type_source, _type_target, _type_label, _type_kind, _type_back, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_label, _dflt_kind, _dflt_back, _return_type):
 def __init__(self,source:_type_source,target:_type_target,label:_type_label=_dflt_label,kind:_type_kind=_dflt_kind,back:_type_back=_dflt_back)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'source',source)
  __dataclass_builtins_object__.__setattr__(self,'target',target)
  __dataclass_builtins_object__.__setattr__(self,'label',label)
  __dataclass_builtins_object__.__setattr__(self,'kind',kind)
  __dataclass_builtins_object__.__setattr__(self,'back',back)
 return __init__

def _496():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(source={self.source!r}, target={self.target!r}, label={self.label!r}, kind={self.kind!r}, back={self.back!r})"
 return __repr__

def _497():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.source,self.target,self.label,self.kind,self.back,)==(other.source,other.target,other.label,other.kind,other.back,)
  return NotImplemented
 return __eq__

def _498(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('source','target','label','kind','back',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _499(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('source','target','label','kind','back',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _500():
 def __hash__(self):
  return hash((self.source,self.target,self.label,self.kind,self.back,))
 return __hash__

def _501(_type_key, _type_kind, _type_detail, _type_join, _type_each, _type_lane, _type_rank, _type_column, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_detail, _dflt_join, _dflt_each, _dflt_lane, _dflt_rank, _dflt_column, _return_type):
 def __init__(self,key:_type_key,kind:_type_kind,detail:_type_detail=_dflt_detail,join:_type_join=_dflt_join,each:_type_each=_dflt_each,lane:_type_lane=_dflt_lane,rank:_type_rank=_dflt_rank,column:_type_column=_dflt_column)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'kind',kind)
  __dataclass_builtins_object__.__setattr__(self,'detail',detail)
  __dataclass_builtins_object__.__setattr__(self,'join',join)
  __dataclass_builtins_object__.__setattr__(self,'each',each)
  __dataclass_builtins_object__.__setattr__(self,'lane',lane)
  __dataclass_builtins_object__.__setattr__(self,'rank',rank)
  __dataclass_builtins_object__.__setattr__(self,'column',column)
 return __init__

def _502():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(key={self.key!r}, kind={self.kind!r}, detail={self.detail!r}, join={self.join!r}, each={self.each!r}, lane={self.lane!r}, rank={self.rank!r}, column={self.column!r})"
 return __repr__

def _503():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.key,self.kind,self.detail,self.join,self.each,self.lane,self.rank,self.column,)==(other.key,other.kind,other.detail,other.join,other.each,other.lane,other.rank,other.column,)
  return NotImplemented
 return __eq__

def _504(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('key','kind','detail','join','each','lane','rank','column',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _505(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('key','kind','detail','join','each','lane','rank','column',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _506():
 def __hash__(self):
  return hash((self.key,self.kind,self.detail,self.join,self.each,self.lane,self.rank,self.column,))
 return __hash__

def _507(_type_name, _type_kind, _type_run, _type_template, _type_paths, _type_required, _type_timeout, _type_pos, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_run, _dflt_template, _dflt_paths, _dflt_required, _dflt_timeout, _dflt_pos, _return_type):
 def __init__(self,name:_type_name,kind:_type_kind,run:_type_run=_dflt_run,template:_type_template=_dflt_template,paths:_type_paths=_dflt_paths,required:_type_required=_dflt_required,timeout:_type_timeout=_dflt_timeout,pos:_type_pos=_dflt_pos)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'kind',kind)
  __dataclass_builtins_object__.__setattr__(self,'run',run)
  __dataclass_builtins_object__.__setattr__(self,'template',template)
  __dataclass_builtins_object__.__setattr__(self,'paths',paths)
  __dataclass_builtins_object__.__setattr__(self,'required',required)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
  __dataclass_builtins_object__.__setattr__(self,'pos',pos)
 return __init__

def _508():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(name={self.name!r}, kind={self.kind!r}, run={self.run!r}, template={self.template!r}, paths={self.paths!r}, required={self.required!r}, timeout={self.timeout!r}, pos={self.pos!r})"
 return __repr__

def _509():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.name,self.kind,self.run,self.template,self.paths,self.required,self.timeout,self.pos,)==(other.name,other.kind,other.run,other.template,other.paths,other.required,other.timeout,other.pos,)
  return NotImplemented
 return __eq__

def _510(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('name','kind','run','template','paths','required','timeout','pos',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _511(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('name','kind','run','template','paths','required','timeout','pos',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _512():
 def __hash__(self):
  return hash((self.name,self.kind,self.run,self.template,self.paths,self.required,self.timeout,self.pos,))
 return __hash__

def _513(_type_source, _type_priority, _type_branches, _type_regions, _type_joins, _type_ends, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_regions, _dflt_joins, _dflt_ends, _return_type):
 def __init__(self,source:_type_source,priority:_type_priority,branches:_type_branches,regions:_type_regions=_HAS_DEFAULT_FACTORY,joins:_type_joins=_dflt_joins,ends:_type_ends=_dflt_ends)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'source',source)
  __dataclass_builtins_object__.__setattr__(self,'priority',priority)
  __dataclass_builtins_object__.__setattr__(self,'branches',branches)
  __dataclass_builtins_object__.__setattr__(self,'regions',_dflt_regions() if regions is _HAS_DEFAULT_FACTORY else regions)
  __dataclass_builtins_object__.__setattr__(self,'joins',joins)
  __dataclass_builtins_object__.__setattr__(self,'ends',ends)
 return __init__

def _514():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(source={self.source!r}, priority={self.priority!r}, branches={self.branches!r}, regions={self.regions!r}, joins={self.joins!r}, ends={self.ends!r})"
 return __repr__

def _515():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.source,self.priority,self.branches,self.regions,self.joins,self.ends,)==(other.source,other.priority,other.branches,other.regions,other.joins,other.ends,)
  return NotImplemented
 return __eq__

def _516(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('source','priority','branches','regions','joins','ends',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _517(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('source','priority','branches','regions','joins','ends',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _518():
 def __hash__(self):
  return hash((self.source,self.priority,self.branches,self.regions,self.joins,self.ends,))
 return __hash__

def _519(_type_max_steps, _type_max_tokens, _type_max_cost_usd, _type_max_parallel, _type_max_wait, _type_max_stalls, _type_max_artifact_bytes, _type_max_items, _type_timeout, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_max_steps, _dflt_max_tokens, _dflt_max_cost_usd, _dflt_max_parallel, _dflt_max_wait, _dflt_max_stalls, _dflt_max_artifact_bytes, _dflt_max_items, _dflt_timeout, _return_type):
 def __init__(self,max_steps:_type_max_steps=_dflt_max_steps,max_tokens:_type_max_tokens=_dflt_max_tokens,max_cost_usd:_type_max_cost_usd=_dflt_max_cost_usd,max_parallel:_type_max_parallel=_dflt_max_parallel,max_wait:_type_max_wait=_dflt_max_wait,max_stalls:_type_max_stalls=_dflt_max_stalls,max_artifact_bytes:_type_max_artifact_bytes=_dflt_max_artifact_bytes,max_items:_type_max_items=_dflt_max_items,timeout:_type_timeout=_dflt_timeout)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'max_steps',max_steps)
  __dataclass_builtins_object__.__setattr__(self,'max_tokens',max_tokens)
  __dataclass_builtins_object__.__setattr__(self,'max_cost_usd',max_cost_usd)
  __dataclass_builtins_object__.__setattr__(self,'max_parallel',max_parallel)
  __dataclass_builtins_object__.__setattr__(self,'max_wait',max_wait)
  __dataclass_builtins_object__.__setattr__(self,'max_stalls',max_stalls)
  __dataclass_builtins_object__.__setattr__(self,'max_artifact_bytes',max_artifact_bytes)
  __dataclass_builtins_object__.__setattr__(self,'max_items',max_items)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
 return __init__

def _520():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(max_steps={self.max_steps!r}, max_tokens={self.max_tokens!r}, max_cost_usd={self.max_cost_usd!r}, max_parallel={self.max_parallel!r}, max_wait={self.max_wait!r}, max_stalls={self.max_stalls!r}, max_artifact_bytes={self.max_artifact_bytes!r}, max_items={self.max_items!r}, timeout={self.timeout!r})"
 return __repr__

def _521():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.max_steps,self.max_tokens,self.max_cost_usd,self.max_parallel,self.max_wait,self.max_stalls,self.max_artifact_bytes,self.max_items,self.timeout,)==(other.max_steps,other.max_tokens,other.max_cost_usd,other.max_parallel,other.max_wait,other.max_stalls,other.max_artifact_bytes,other.max_items,other.timeout,)
  return NotImplemented
 return __eq__

def _522(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('max_steps','max_tokens','max_cost_usd','max_parallel','max_wait','max_stalls','max_artifact_bytes','max_items','timeout',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _523(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('max_steps','max_tokens','max_cost_usd','max_parallel','max_wait','max_stalls','max_artifact_bytes','max_items','timeout',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _524():
 def __hash__(self):
  return hash((self.max_steps,self.max_tokens,self.max_cost_usd,self.max_parallel,self.max_wait,self.max_stalls,self.max_artifact_bytes,self.max_items,self.timeout,))
 return __hash__

def _525(_type_key, _type_type, _type_sequence_index, _type_transitions, _type_provider, _type_model, _type_prompt, _type_prompt_file, _type_run, _type_allow_failure, _type_message, _type_decisions, _type_max_retries, _type_max_visits, _type_timeout, _type_idle_timeout, _type_context, _type_max_reports, _type_options, _type_templates, _type_checks, _type_pos, _type_join, _type_on_conflict, _type_sandbox, _type_env, _type_tools, _type_mcp, _type_output, _type_shell, _type_fallback, _type_uses, _type_child, _type_with_inputs, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_transitions, _dflt_provider, _dflt_model, _dflt_prompt, _dflt_prompt_file, _dflt_run, _dflt_allow_failure, _dflt_message, _dflt_decisions, _dflt_max_retries, _dflt_max_visits, _dflt_timeout, _dflt_idle_timeout, _dflt_context, _dflt_max_reports, _dflt_options, _dflt_templates, _dflt_checks, _dflt_pos, _dflt_join, _dflt_on_conflict, _dflt_sandbox, _dflt_env, _dflt_tools, _dflt_mcp, _dflt_output, _dflt_shell, _dflt_fallback, _dflt_uses, _dflt_child, _dflt_with_inputs, _return_type):
 def __init__(self,key:_type_key,type:_type_type,sequence_index:_type_sequence_index,transitions:_type_transitions=_dflt_transitions,provider:_type_provider=_dflt_provider,model:_type_model=_dflt_model,prompt:_type_prompt=_dflt_prompt,prompt_file:_type_prompt_file=_dflt_prompt_file,run:_type_run=_dflt_run,allow_failure:_type_allow_failure=_dflt_allow_failure,message:_type_message=_dflt_message,decisions:_type_decisions=_dflt_decisions,max_retries:_type_max_retries=_dflt_max_retries,max_visits:_type_max_visits=_dflt_max_visits,timeout:_type_timeout=_dflt_timeout,idle_timeout:_type_idle_timeout=_dflt_idle_timeout,context:_type_context=_dflt_context,max_reports:_type_max_reports=_dflt_max_reports,options:_type_options=_HAS_DEFAULT_FACTORY,templates:_type_templates=_HAS_DEFAULT_FACTORY,checks:_type_checks=_dflt_checks,pos:_type_pos=_dflt_pos,join:_type_join=_dflt_join,on_conflict:_type_on_conflict=_dflt_on_conflict,sandbox:_type_sandbox=_dflt_sandbox,env:_type_env=_dflt_env,tools:_type_tools=_dflt_tools,mcp:_type_mcp=_dflt_mcp,output:_type_output=_dflt_output,shell:_type_shell=_dflt_shell,fallback:_type_fallback=_dflt_fallback,uses:_type_uses=_dflt_uses,child:_type_child=_dflt_child,with_inputs:_type_with_inputs=_dflt_with_inputs)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'type',type)
  __dataclass_builtins_object__.__setattr__(self,'sequence_index',sequence_index)
  __dataclass_builtins_object__.__setattr__(self,'transitions',transitions)
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
  __dataclass_builtins_object__.__setattr__(self,'model',model)
  __dataclass_builtins_object__.__setattr__(self,'prompt',prompt)
  __dataclass_builtins_object__.__setattr__(self,'prompt_file',prompt_file)
  __dataclass_builtins_object__.__setattr__(self,'run',run)
  __dataclass_builtins_object__.__setattr__(self,'allow_failure',allow_failure)
  __dataclass_builtins_object__.__setattr__(self,'message',message)
  __dataclass_builtins_object__.__setattr__(self,'decisions',decisions)
  __dataclass_builtins_object__.__setattr__(self,'max_retries',max_retries)
  __dataclass_builtins_object__.__setattr__(self,'max_visits',max_visits)
  __dataclass_builtins_object__.__setattr__(self,'timeout',timeout)
  __dataclass_builtins_object__.__setattr__(self,'idle_timeout',idle_timeout)
  __dataclass_builtins_object__.__setattr__(self,'context',context)
  __dataclass_builtins_object__.__setattr__(self,'max_reports',max_reports)
  __dataclass_builtins_object__.__setattr__(self,'options',_dflt_options() if options is _HAS_DEFAULT_FACTORY else options)
  __dataclass_builtins_object__.__setattr__(self,'templates',_dflt_templates() if templates is _HAS_DEFAULT_FACTORY else templates)
  __dataclass_builtins_object__.__setattr__(self,'checks',checks)
  __dataclass_builtins_object__.__setattr__(self,'pos',pos)
  __dataclass_builtins_object__.__setattr__(self,'join',join)
  __dataclass_builtins_object__.__setattr__(self,'on_conflict',on_conflict)
  __dataclass_builtins_object__.__setattr__(self,'sandbox',sandbox)
  __dataclass_builtins_object__.__setattr__(self,'env',env)
  __dataclass_builtins_object__.__setattr__(self,'tools',tools)
  __dataclass_builtins_object__.__setattr__(self,'mcp',mcp)
  __dataclass_builtins_object__.__setattr__(self,'output',output)
  __dataclass_builtins_object__.__setattr__(self,'shell',shell)
  __dataclass_builtins_object__.__setattr__(self,'fallback',fallback)
  __dataclass_builtins_object__.__setattr__(self,'uses',uses)
  __dataclass_builtins_object__.__setattr__(self,'child',child)
  __dataclass_builtins_object__.__setattr__(self,'with_inputs',with_inputs)
 return __init__

def _526():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(key={self.key!r}, type={self.type!r}, sequence_index={self.sequence_index!r}, transitions={self.transitions!r}, provider={self.provider!r}, model={self.model!r}, prompt={self.prompt!r}, prompt_file={self.prompt_file!r}, run={self.run!r}, allow_failure={self.allow_failure!r}, message={self.message!r}, decisions={self.decisions!r}, max_retries={self.max_retries!r}, max_visits={self.max_visits!r}, timeout={self.timeout!r}, idle_timeout={self.idle_timeout!r}, context={self.context!r}, max_reports={self.max_reports!r}, options={self.options!r}, templates={self.templates!r}, checks={self.checks!r}, pos={self.pos!r}, join={self.join!r}, on_conflict={self.on_conflict!r}, sandbox={self.sandbox!r}, env={self.env!r}, tools={self.tools!r}, mcp={self.mcp!r}, output={self.output!r}, shell={self.shell!r}, fallback={self.fallback!r}, uses={self.uses!r}, with_inputs={self.with_inputs!r})"
 return __repr__

def _527():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.key,self.type,self.sequence_index,self.transitions,self.provider,self.model,self.prompt,self.prompt_file,self.run,self.allow_failure,self.message,self.decisions,self.max_retries,self.max_visits,self.timeout,self.idle_timeout,self.context,self.max_reports,self.options,self.templates,self.checks,self.pos,self.join,self.on_conflict,self.sandbox,self.env,self.tools,self.mcp,self.output,self.shell,self.fallback,self.uses,self.with_inputs,)==(other.key,other.type,other.sequence_index,other.transitions,other.provider,other.model,other.prompt,other.prompt_file,other.run,other.allow_failure,other.message,other.decisions,other.max_retries,other.max_visits,other.timeout,other.idle_timeout,other.context,other.max_reports,other.options,other.templates,other.checks,other.pos,other.join,other.on_conflict,other.sandbox,other.env,other.tools,other.mcp,other.output,other.shell,other.fallback,other.uses,other.with_inputs,)
  return NotImplemented
 return __eq__

def _528(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('key','type','sequence_index','transitions','provider','model','prompt','prompt_file','run','allow_failure','message','decisions','max_retries','max_visits','timeout','idle_timeout','context','max_reports','options','templates','checks','pos','join','on_conflict','sandbox','env','tools','mcp','output','shell','fallback','uses','child','with_inputs',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _529(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('key','type','sequence_index','transitions','provider','model','prompt','prompt_file','run','allow_failure','message','decisions','max_retries','max_visits','timeout','idle_timeout','context','max_reports','options','templates','checks','pos','join','on_conflict','sandbox','env','tools','mcp','output','shell','fallback','uses','child','with_inputs',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _530():
 def __hash__(self):
  return hash((self.key,self.type,self.sequence_index,self.transitions,self.provider,self.model,self.prompt,self.prompt_file,self.run,self.allow_failure,self.message,self.decisions,self.max_retries,self.max_visits,self.timeout,self.idle_timeout,self.context,self.max_reports,self.options,self.templates,self.checks,self.pos,self.join,self.on_conflict,self.sandbox,self.env,self.tools,self.mcp,self.output,self.shell,self.fallback,self.uses,self.with_inputs,))
 return __hash__

def _531(_type_line, _type_column, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,line:_type_line,column:_type_column)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'line',line)
  __dataclass_builtins_object__.__setattr__(self,'column',column)
 return __init__

def _532():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r})"
 return __repr__

def _533():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.line,self.column,)==(other.line,other.column,)
  return NotImplemented
 return __eq__

def _534(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('line','column',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _535(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('line','column',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _536():
 def __hash__(self):
  return hash((self.line,self.column,))
 return __hash__

def _537(_type_target, _type_priority, _type_when, _type_guard, _type_max, _type_pos, _type_fan_out, _type_branch_guards, _type_branch_whens, _type_for_each, _type_alias, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_when, _dflt_guard, _dflt_max, _dflt_pos, _dflt_fan_out, _dflt_branch_guards, _dflt_branch_whens, _dflt_for_each, _dflt_alias, _return_type):
 def __init__(self,target:_type_target,priority:_type_priority,when:_type_when=_dflt_when,guard:_type_guard=_dflt_guard,max:_type_max=_dflt_max,pos:_type_pos=_dflt_pos,fan_out:_type_fan_out=_dflt_fan_out,branch_guards:_type_branch_guards=_dflt_branch_guards,branch_whens:_type_branch_whens=_dflt_branch_whens,for_each:_type_for_each=_dflt_for_each,alias:_type_alias=_dflt_alias)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'target',target)
  __dataclass_builtins_object__.__setattr__(self,'priority',priority)
  __dataclass_builtins_object__.__setattr__(self,'when',when)
  __dataclass_builtins_object__.__setattr__(self,'guard',guard)
  __dataclass_builtins_object__.__setattr__(self,'max',max)
  __dataclass_builtins_object__.__setattr__(self,'pos',pos)
  __dataclass_builtins_object__.__setattr__(self,'fan_out',fan_out)
  __dataclass_builtins_object__.__setattr__(self,'branch_guards',branch_guards)
  __dataclass_builtins_object__.__setattr__(self,'branch_whens',branch_whens)
  __dataclass_builtins_object__.__setattr__(self,'for_each',for_each)
  __dataclass_builtins_object__.__setattr__(self,'alias',alias)
 return __init__

def _538():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(target={self.target!r}, priority={self.priority!r}, when={self.when!r}, guard={self.guard!r}, max={self.max!r}, pos={self.pos!r}, fan_out={self.fan_out!r}, branch_guards={self.branch_guards!r}, branch_whens={self.branch_whens!r}, for_each={self.for_each!r}, alias={self.alias!r})"
 return __repr__

def _539():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.target,self.priority,self.when,self.guard,self.max,self.pos,self.fan_out,self.branch_guards,self.branch_whens,self.for_each,self.alias,)==(other.target,other.priority,other.when,other.guard,other.max,other.pos,other.fan_out,other.branch_guards,other.branch_whens,other.for_each,other.alias,)
  return NotImplemented
 return __eq__

def _540(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('target','priority','when','guard','max','pos','fan_out','branch_guards','branch_whens','for_each','alias',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _541(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('target','priority','when','guard','max','pos','fan_out','branch_guards','branch_whens','for_each','alias',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _542():
 def __hash__(self):
  return hash((self.target,self.priority,self.when,self.guard,self.max,self.pos,self.fan_out,self.branch_guards,self.branch_whens,self.for_each,self.alias,))
 return __hash__

def _543(_type_key, _type_phases, _type_start, _type_name, _type_description, _type_inputs, _type_limits, _type_pull_request, _type_pull_request_title, _type_pull_request_when, _type_source_path, _type_content_hash, _type_source_text, _type_source_files, _type_git_hooks, _type_memory, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_name, _dflt_description, _dflt_inputs, _dflt_limits, _dflt_pull_request, _dflt_pull_request_title, _dflt_pull_request_when, _dflt_source_path, _dflt_content_hash, _dflt_source_text, _dflt_source_files, _dflt_git_hooks, _dflt_memory, _return_type):
 def __init__(self,key:_type_key,phases:_type_phases,start:_type_start,name:_type_name=_dflt_name,description:_type_description=_dflt_description,inputs:_type_inputs=_dflt_inputs,limits:_type_limits=_dflt_limits,pull_request:_type_pull_request=_dflt_pull_request,pull_request_title:_type_pull_request_title=_dflt_pull_request_title,pull_request_when:_type_pull_request_when=_dflt_pull_request_when,source_path:_type_source_path=_dflt_source_path,content_hash:_type_content_hash=_dflt_content_hash,source_text:_type_source_text=_dflt_source_text,source_files:_type_source_files=_HAS_DEFAULT_FACTORY,git_hooks:_type_git_hooks=_dflt_git_hooks,memory:_type_memory=_dflt_memory)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'phases',phases)
  __dataclass_builtins_object__.__setattr__(self,'start',start)
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'description',description)
  __dataclass_builtins_object__.__setattr__(self,'inputs',inputs)
  __dataclass_builtins_object__.__setattr__(self,'limits',limits)
  __dataclass_builtins_object__.__setattr__(self,'pull_request',pull_request)
  __dataclass_builtins_object__.__setattr__(self,'pull_request_title',pull_request_title)
  __dataclass_builtins_object__.__setattr__(self,'pull_request_when',pull_request_when)
  __dataclass_builtins_object__.__setattr__(self,'source_path',source_path)
  __dataclass_builtins_object__.__setattr__(self,'content_hash',content_hash)
  __dataclass_builtins_object__.__setattr__(self,'source_text',source_text)
  __dataclass_builtins_object__.__setattr__(self,'source_files',_dflt_source_files() if source_files is _HAS_DEFAULT_FACTORY else source_files)
  __dataclass_builtins_object__.__setattr__(self,'git_hooks',git_hooks)
  __dataclass_builtins_object__.__setattr__(self,'memory',memory)
 return __init__

def _544():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(key={self.key!r}, phases={self.phases!r}, start={self.start!r}, name={self.name!r}, description={self.description!r}, inputs={self.inputs!r}, limits={self.limits!r}, pull_request={self.pull_request!r}, pull_request_title={self.pull_request_title!r}, pull_request_when={self.pull_request_when!r}, source_path={self.source_path!r}, content_hash={self.content_hash!r}, git_hooks={self.git_hooks!r}, memory={self.memory!r})"
 return __repr__

def _545():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.key,self.phases,self.start,self.name,self.description,self.inputs,self.limits,self.pull_request,self.pull_request_title,self.pull_request_when,self.source_path,self.content_hash,self.source_text,self.source_files,self.git_hooks,self.memory,)==(other.key,other.phases,other.start,other.name,other.description,other.inputs,other.limits,other.pull_request,other.pull_request_title,other.pull_request_when,other.source_path,other.content_hash,other.source_text,other.source_files,other.git_hooks,other.memory,)
  return NotImplemented
 return __eq__

def _546(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('key','phases','start','name','description','inputs','limits','pull_request','pull_request_title','pull_request_when','source_path','content_hash','source_text','source_files','git_hooks','memory',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _547(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('key','phases','start','name','description','inputs','limits','pull_request','pull_request_title','pull_request_when','source_path','content_hash','source_text','source_files','git_hooks','memory',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _548():
 def __hash__(self):
  return hash((self.key,self.phases,self.start,self.name,self.description,self.inputs,self.limits,self.pull_request,self.pull_request_title,self.pull_request_when,self.source_path,self.content_hash,self.source_text,self.source_files,self.git_hooks,self.memory,))
 return __hash__

def _549(_type_provider, _type_model, _type_options, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_model, _dflt_options, _return_type):
 def __init__(self,provider:_type_provider,model:_type_model=_dflt_model,options:_type_options=_HAS_DEFAULT_FACTORY)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
  __dataclass_builtins_object__.__setattr__(self,'model',model)
  __dataclass_builtins_object__.__setattr__(self,'options',_dflt_options() if options is _HAS_DEFAULT_FACTORY else options)
 return __init__

def _550():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(provider={self.provider!r}, model={self.model!r}, options={self.options!r})"
 return __repr__

def _551():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.provider,self.model,self.options,)==(other.provider,other.model,other.options,)
  return NotImplemented
 return __eq__

def _552(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('provider','model','options',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _553(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('provider','model','options',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _554():
 def __hash__(self):
  return hash((self.provider,self.model,self.options,))
 return __hash__

def _555(_type_name, _type_required, _type_default, _type_description, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_required, _dflt_default, _dflt_description, _return_type):
 def __init__(self,name:_type_name,required:_type_required=_dflt_required,default:_type_default=_dflt_default,description:_type_description=_dflt_description)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'required',required)
  __dataclass_builtins_object__.__setattr__(self,'default',default)
  __dataclass_builtins_object__.__setattr__(self,'description',description)
 return __init__

def _556():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(name={self.name!r}, required={self.required!r}, default={self.default!r}, description={self.description!r})"
 return __repr__

def _557():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.name,self.required,self.default,self.description,)==(other.name,other.required,other.default,other.description,)
  return NotImplemented
 return __eq__

def _558(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('name','required','default','description',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _559(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('name','required','default','description',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _560():
 def __hash__(self):
  return hash((self.name,self.required,self.default,self.description,))
 return __hash__

def _561(_type_name, _type_command, _type_args, _type_env, _type_cwd, _type_url, _type_headers, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_command, _dflt_args, _dflt_env, _dflt_cwd, _dflt_url, _dflt_headers, _return_type):
 def __init__(self,name:_type_name,command:_type_command=_dflt_command,args:_type_args=_dflt_args,env:_type_env=_dflt_env,cwd:_type_cwd=_dflt_cwd,url:_type_url=_dflt_url,headers:_type_headers=_dflt_headers)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'command',command)
  __dataclass_builtins_object__.__setattr__(self,'args',args)
  __dataclass_builtins_object__.__setattr__(self,'env',env)
  __dataclass_builtins_object__.__setattr__(self,'cwd',cwd)
  __dataclass_builtins_object__.__setattr__(self,'url',url)
  __dataclass_builtins_object__.__setattr__(self,'headers',headers)
 return __init__

def _562():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(name={self.name!r}, command={self.command!r}, args={self.args!r}, env={self.env!r}, cwd={self.cwd!r}, url={self.url!r}, headers={self.headers!r})"
 return __repr__

def _563():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.name,self.command,self.args,self.env,self.cwd,self.url,self.headers,)==(other.name,other.command,other.args,other.env,other.cwd,other.url,other.headers,)
  return NotImplemented
 return __eq__

def _564(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('name','command','args','env','cwd','url','headers',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _565(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('name','command','args','env','cwd','url','headers',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _566():
 def __hash__(self):
  return hash((self.name,self.command,self.args,self.env,self.cwd,self.url,self.headers,))
 return __hash__

def _567(_type_title, _type_body_from, _type_draft, _type_base, _type_provider, _type_when, _type_required, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_title, _dflt_body_from, _dflt_draft, _dflt_base, _dflt_provider, _dflt_when, _dflt_required, _return_type):
 def __init__(self,title:_type_title=_dflt_title,body_from:_type_body_from=_dflt_body_from,draft:_type_draft=_dflt_draft,base:_type_base=_dflt_base,provider:_type_provider=_dflt_provider,when:_type_when=_dflt_when,required:_type_required=_dflt_required)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'title',title)
  __dataclass_builtins_object__.__setattr__(self,'body_from',body_from)
  __dataclass_builtins_object__.__setattr__(self,'draft',draft)
  __dataclass_builtins_object__.__setattr__(self,'base',base)
  __dataclass_builtins_object__.__setattr__(self,'provider',provider)
  __dataclass_builtins_object__.__setattr__(self,'when',when)
  __dataclass_builtins_object__.__setattr__(self,'required',required)
 return __init__

def _568():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(title={self.title!r}, body_from={self.body_from!r}, draft={self.draft!r}, base={self.base!r}, provider={self.provider!r}, when={self.when!r}, required={self.required!r})"
 return __repr__

def _569():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.title,self.body_from,self.draft,self.base,self.provider,self.when,self.required,)==(other.title,other.body_from,other.draft,other.base,other.provider,other.when,other.required,)
  return NotImplemented
 return __eq__

def _570(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('title','body_from','draft','base','provider','when','required',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _571(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('title','body_from','draft','base','provider','when','required',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _572():
 def __hash__(self):
  return hash((self.title,self.body_from,self.draft,self.base,self.provider,self.when,self.required,))
 return __hash__

def _573(_type_network, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_network, _return_type):
 def __init__(self,network:_type_network=_dflt_network)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'network',network)
 return __init__

def _574():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(network={self.network!r})"
 return __repr__

def _575():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.network,)==(other.network,)
  return NotImplemented
 return __eq__

def _576(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('network',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _577(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('network',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _578():
 def __hash__(self):
  return hash((self.network,))
 return __hash__

def _579(_type_allow, _type_deny, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_allow, _dflt_deny, _return_type):
 def __init__(self,allow:_type_allow=_dflt_allow,deny:_type_deny=_dflt_deny)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'allow',allow)
  __dataclass_builtins_object__.__setattr__(self,'deny',deny)
 return __init__

def _580():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(allow={self.allow!r}, deny={self.deny!r})"
 return __repr__

def _581():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.allow,self.deny,)==(other.allow,other.deny,)
  return NotImplemented
 return __eq__

def _582(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('allow','deny',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _583(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('allow','deny',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _584():
 def __hash__(self):
  return hash((self.allow,self.deny,))
 return __hash__

def _585(_type_types, _type_enum, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_enum, _return_type):
 def __init__(self,types:_type_types,enum:_type_enum=_dflt_enum)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'types',types)
  __dataclass_builtins_object__.__setattr__(self,'enum',enum)
 return __init__

def _586():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(types={self.types!r}, enum={self.enum!r})"
 return __repr__

def _587():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.types,self.enum,)==(other.types,other.enum,)
  return NotImplemented
 return __eq__

def _588(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('types','enum',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _589(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('types','enum',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _590():
 def __hash__(self):
  return hash((self.types,self.enum,))
 return __hash__

def _591(_type_phase_keys, _type_validate_phase, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_phase_keys, _dflt_validate_phase, _return_type):
 def __init__(self,phase_keys:_type_phase_keys=_dflt_phase_keys,validate_phase:_type_validate_phase=_dflt_validate_phase)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'phase_keys',phase_keys)
  __dataclass_builtins_object__.__setattr__(self,'validate_phase',validate_phase)
 return __init__

def _592():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phase_keys={self.phase_keys!r}, validate_phase={self.validate_phase!r})"
 return __repr__

def _593():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phase_keys,self.validate_phase,)==(other.phase_keys,other.validate_phase,)
  return NotImplemented
 return __eq__

def _594(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('phase_keys','validate_phase',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _595(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('phase_keys','validate_phase',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _596():
 def __hash__(self):
  return hash((self.phase_keys,self.validate_phase,))
 return __hash__

def _597(_type_name, _type_node, _type_phase, _type_out, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,name:_type_name,node:_type_node,phase:_type_phase,out:_type_out)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'node',node)
  __dataclass_builtins_object__.__setattr__(self,'phase',phase)
  __dataclass_builtins_object__.__setattr__(self,'out',out)
 return __init__

def _598():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(name={self.name!r}, node={self.node!r}, phase={self.phase!r}, out={self.out!r})"
 return __repr__

def _599():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.name,self.node,self.phase,self.out,)==(other.name,other.node,other.phase,other.out,)
  return NotImplemented
 return __eq__

def _600(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('name','node','phase','out',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _601(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('name','node','phase','out',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _602():
 def __hash__(self):
  return hash((self.name,self.node,self.phase,self.out,))
 return __hash__

def _603(_type_name, _type_schema, _type_read, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,name:_type_name,schema:_type_schema,read:_type_read)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'name',name)
  __dataclass_builtins_object__.__setattr__(self,'schema',schema)
  __dataclass_builtins_object__.__setattr__(self,'read',read)
 return __init__

def _604():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(name={self.name!r}, schema={self.schema!r}, read={self.read!r})"
 return __repr__

def _605():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.name,self.schema,self.read,)==(other.name,other.schema,other.read,)
  return NotImplemented
 return __eq__

def _606(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('name','schema','read',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _607(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('name','schema','read',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _608():
 def __hash__(self):
  return hash((self.name,self.schema,self.read,))
 return __hash__

def _609(_type_key, _type_node, _type_fields, _type_settings, _type_decisions, _type_out, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _return_type):
 def __init__(self,key:_type_key,node:_type_node,fields:_type_fields,settings:_type_settings,decisions:_type_decisions,out:_type_out)->_return_type:
  __dataclass_builtins_object__.__setattr__(self,'key',key)
  __dataclass_builtins_object__.__setattr__(self,'node',node)
  __dataclass_builtins_object__.__setattr__(self,'fields',fields)
  __dataclass_builtins_object__.__setattr__(self,'settings',settings)
  __dataclass_builtins_object__.__setattr__(self,'decisions',decisions)
  __dataclass_builtins_object__.__setattr__(self,'out',out)
 return __init__

def _610():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(key={self.key!r}, node={self.node!r}, fields={self.fields!r}, settings={self.settings!r}, decisions={self.decisions!r}, out={self.out!r})"
 return __repr__

def _611():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.key,self.node,self.fields,self.settings,self.decisions,self.out,)==(other.key,other.node,other.fields,other.settings,other.decisions,other.out,)
  return NotImplemented
 return __eq__

def _612(cls, FrozenInstanceError):
 def __setattr__(self,name,value):
  if type(self) is cls or name in ('key','node','fields','settings','decisions','out',):
   raise FrozenInstanceError(f"cannot assign to field {name!r}")
  super(cls, self).__setattr__(name, value)
 return __setattr__

def _613(cls, FrozenInstanceError):
 def __delattr__(self,name):
  if type(self) is cls or name in ('key','node','fields','settings','decisions','out',):
   raise FrozenInstanceError(f"cannot delete field {name!r}")
  super(cls, self).__delattr__(name)
 return __delattr__

def _614():
 def __hash__(self):
  return hash((self.key,self.node,self.fields,self.settings,self.decisions,self.out,))
 return __hash__

def _615(_type_names, _type_nodes, _type_guards, _type_whens, _type_when_nodes, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_names, _dflt_nodes, _dflt_guards, _dflt_whens, _dflt_when_nodes, _return_type):
 def __init__(self,names:_type_names=_dflt_names,nodes:_type_nodes=_dflt_nodes,guards:_type_guards=_dflt_guards,whens:_type_whens=_dflt_whens,when_nodes:_type_when_nodes=_HAS_DEFAULT_FACTORY)->_return_type:
  self.names=names
  self.nodes=nodes
  self.guards=guards
  self.whens=whens
  self.when_nodes=_dflt_when_nodes() if when_nodes is _HAS_DEFAULT_FACTORY else when_nodes
 return __init__

def _616():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(names={self.names!r}, nodes={self.nodes!r}, guards={self.guards!r}, whens={self.whens!r}, when_nodes={self.when_nodes!r})"
 return __repr__

def _617():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.names,self.nodes,self.guards,self.whens,self.when_nodes,)==(other.names,other.nodes,other.guards,other.whens,other.when_nodes,)
  return NotImplemented
 return __eq__

def _618(_type_file, _type_diagnostics, _type__said, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_diagnostics, _dflt__said, _return_type):
 def __init__(self,file:_type_file,diagnostics:_type_diagnostics=_HAS_DEFAULT_FACTORY,_said:_type__said=_HAS_DEFAULT_FACTORY)->_return_type:
  self.file=file
  self.diagnostics=_dflt_diagnostics() if diagnostics is _HAS_DEFAULT_FACTORY else diagnostics
  self._said=_dflt__said() if _said is _HAS_DEFAULT_FACTORY else _said
 return __init__

def _619():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(file={self.file!r}, diagnostics={self.diagnostics!r})"
 return __repr__

def _620():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.file,self.diagnostics,)==(other.file,other.diagnostics,)
  return NotImplemented
 return __eq__

def _621(_type_phases, _type_transitions, _type_when, _type_templates, _type_body_from, _type_pull_request_when, _type_start, MISSING, _HAS_DEFAULT_FACTORY, __dataclass_builtins_object__, _dflt_phases, _dflt_transitions, _dflt_when, _dflt_templates, _dflt_body_from, _dflt_pull_request_when, _dflt_start, _return_type):
 def __init__(self,phases:_type_phases=_HAS_DEFAULT_FACTORY,transitions:_type_transitions=_HAS_DEFAULT_FACTORY,when:_type_when=_HAS_DEFAULT_FACTORY,templates:_type_templates=_HAS_DEFAULT_FACTORY,body_from:_type_body_from=_dflt_body_from,pull_request_when:_type_pull_request_when=_dflt_pull_request_when,start:_type_start=_dflt_start)->_return_type:
  self.phases=_dflt_phases() if phases is _HAS_DEFAULT_FACTORY else phases
  self.transitions=_dflt_transitions() if transitions is _HAS_DEFAULT_FACTORY else transitions
  self.when=_dflt_when() if when is _HAS_DEFAULT_FACTORY else when
  self.templates=_dflt_templates() if templates is _HAS_DEFAULT_FACTORY else templates
  self.body_from=body_from
  self.pull_request_when=pull_request_when
  self.start=start
 return __init__

def _622():
 def __repr__(self):
  return self.__class__.__qualname__ + f"(phases={self.phases!r}, transitions={self.transitions!r}, when={self.when!r}, templates={self.templates!r}, body_from={self.body_from!r}, pull_request_when={self.pull_request_when!r}, start={self.start!r})"
 return __repr__

def _623():
 def __eq__(self,other):
  if other.__class__ is self.__class__:
   return (self.phases,self.transitions,self.when,self.templates,self.body_from,self.pull_request_when,self.start,)==(other.phases,other.transitions,other.when,other.templates,other.body_from,other.pull_request_when,other.start,)
  return NotImplemented
 return __eq__


MADE = {
    'alphred.engine.context.ContextBundle': (
        ((('frozen', True),), False, (('envelopes', 'tuple[str, ...]', False, False, True, True, None, True, False, False), ('manifest', 'dict[str, Any]', False, False, True, True, None, True, False, False))),
        (('__init__', _0), ('__repr__', _1), ('__eq__', _2), ('__setattr__', _3), ('__delattr__', _4), ('__hash__', _5),),
    ),
    'alphred.engine.context.UpstreamReport': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('text', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _6), ('__repr__', _7), ('__eq__', _8), ('__setattr__', _9), ('__delattr__', _10), ('__hash__', _11),),
    ),
    'alphred.engine.events.AddPhase': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('base', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _12), ('__repr__', _13), ('__eq__', _14), ('__setattr__', _15), ('__delattr__', _16), ('__hash__', _17),),
    ),
    'alphred.engine.events.ApprovalGiven': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('decision', 'str', False, False, True, True, None, True, False, False), ('comment', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _18), ('__repr__', _19), ('__eq__', _20), ('__setattr__', _21), ('__delattr__', _22), ('__hash__', _23),),
    ),
    'alphred.engine.events.ApprovalRequested': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _24), ('__repr__', _25), ('__eq__', _26), ('__setattr__', _27), ('__delattr__', _28), ('__hash__', _29),),
    ),
    'alphred.engine.events.AwaitApproval': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _30), ('__repr__', _31), ('__eq__', _32), ('__setattr__', _33), ('__delattr__', _34), ('__hash__', _35),),
    ),
    'alphred.engine.events.AwaitCi': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('summary', 'str', True, False, True, True, None, True, False, False))),
        (('__init__', _36), ('__repr__', _37), ('__eq__', _38), ('__setattr__', _39), ('__delattr__', _40), ('__hash__', _41),),
    ),
    'alphred.engine.events.CancelRequested': (
        ((('frozen', True),), False, ()),
        (('__init__', _42), ('__repr__', _43), ('__eq__', _44), ('__setattr__', _45), ('__delattr__', _46), ('__hash__', _47),),
    ),
    'alphred.engine.events.CiWaiting': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('summary', 'str', True, False, True, True, None, True, False, False))),
        (('__init__', _48), ('__repr__', _49), ('__eq__', _50), ('__setattr__', _51), ('__delattr__', _52), ('__hash__', _53),),
    ),
    'alphred.engine.events.Deliver': (
        ((('frozen', True),), False, (('step', 'str', False, False, True, True, None, True, False, False),)),
        (('__init__', _54), ('__repr__', _55), ('__eq__', _56), ('__setattr__', _57), ('__delattr__', _58), ('__hash__', _59),),
    ),
    'alphred.engine.events.DeliveryDone': (
        ((('frozen', True),), False, (('step', 'str', False, False, True, True, None, True, False, False), ('url', 'str | None', True, False, True, True, None, True, False, False), ('nothing', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _60), ('__repr__', _61), ('__eq__', _62), ('__setattr__', _63), ('__delattr__', _64), ('__hash__', _65),),
    ),
    'alphred.engine.events.DeliveryFailed': (
        ((('frozen', True),), False, (('step', 'str', False, False, True, True, None, True, False, False), ('kind', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _66), ('__repr__', _67), ('__eq__', _68), ('__setattr__', _69), ('__delattr__', _70), ('__hash__', _71),),
    ),
    'alphred.engine.events.MergeBranch': (
        ((('frozen', True),), False, (('join', 'str', False, False, True, True, None, True, False, False), ('branch', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _72), ('__repr__', _73), ('__eq__', _74), ('__setattr__', _75), ('__delattr__', _76), ('__hash__', _77),),
    ),
    'alphred.engine.events.MergeConflicted': (
        ((('frozen', True),), False, (('join', 'str', False, False, True, True, None, True, False, False), ('branch', 'str', False, False, True, True, None, True, False, False), ('conflicts', 'tuple[str, ...]', False, False, True, True, None, True, False, False), ('ref', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _78), ('__repr__', _79), ('__eq__', _80), ('__setattr__', _81), ('__delattr__', _82), ('__hash__', _83),),
    ),
    'alphred.engine.events.MergeDone': (
        ((('frozen', True),), False, (('join', 'str', False, False, True, True, None, True, False, False), ('branch', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _84), ('__repr__', _85), ('__eq__', _86), ('__setattr__', _87), ('__delattr__', _88), ('__hash__', _89),),
    ),
    'alphred.engine.events.PauseRequested': (
        ((('frozen', True),), False, ()),
        (('__init__', _90), ('__repr__', _91), ('__eq__', _92), ('__setattr__', _93), ('__delattr__', _94), ('__hash__', _95),),
    ),
    'alphred.engine.events.PhaseCompleted': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('decision', 'str | None', True, False, True, True, None, True, False, False), ('report', 'Report', True, False, True, True, None, True, False, False), ('exit_code', 'int | None', True, False, True, True, None, True, False, False), ('tokens', 'int', True, False, True, True, None, True, False, False), ('cost_usd', 'float', True, False, True, True, None, True, False, False), ('checks', 'Mapping[str, Mapping[str, Any]]', False, True, True, True, None, True, False, False), ('tree', 'str | None', True, False, True, True, None, True, False, False), ('child_steps', 'int', True, False, True, True, None, True, False, False))),
        (('__init__', _96), ('__repr__', _97), ('__eq__', _98), ('__setattr__', _99), ('__delattr__', _100), ('__hash__', _101),),
    ),
    'alphred.engine.events.PhaseFailed': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('reason', 'str', False, False, True, True, None, True, False, False), ('retryable', 'bool', True, False, True, True, None, True, False, False), ('error_code', 'str | None', True, False, True, True, None, True, False, False), ('tokens', 'int', True, False, True, True, None, True, False, False), ('cost_usd', 'float', True, False, True, True, None, True, False, False), ('wake_at', 'float | None', True, False, True, True, None, True, False, False), ('wait_seconds', 'float', True, False, True, True, None, True, False, False), ('child_steps', 'int', True, False, True, True, None, True, False, False))),
        (('__init__', _102), ('__repr__', _103), ('__eq__', _104), ('__setattr__', _105), ('__delattr__', _106), ('__hash__', _107),),
    ),
    'alphred.engine.events.PhaseInterrupted': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _108), ('__repr__', _109), ('__eq__', _110), ('__setattr__', _111), ('__delattr__', _112), ('__hash__', _113),),
    ),
    'alphred.engine.events.RecordPullRequest': (
        ((('frozen', True),), False, (('url', 'str', False, False, True, True, None, True, False, False),)),
        (('__init__', _114), ('__repr__', _115), ('__eq__', _116), ('__setattr__', _117), ('__delattr__', _118), ('__hash__', _119),),
    ),
    'alphred.engine.events.RecordRouting': (
        ((('frozen', True),), False, (('source', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('decision', 'str | None', False, False, True, True, None, True, False, False), ('target', 'str', False, False, True, True, None, True, False, False), ('priority', 'int | None', False, False, True, True, None, True, False, False), ('reason', 'str | None', True, False, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False), ('fan_out', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('explanation', 'tuple[dict[str, Any], ...]', True, False, True, True, None, False, False, False))),
        (('__init__', _120), ('__repr__', _121), ('__eq__', _122), ('__setattr__', _123), ('__delattr__', _124), ('__hash__', _125),),
    ),
    'alphred.engine.events.RecordStep': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('outcome', 'StepOutcome', False, False, True, True, None, True, False, False), ('decision', 'str | None', True, False, True, True, None, True, False, False), ('next', 'str | None', True, False, True, True, None, True, False, False), ('reason', 'str | None', True, False, True, True, None, True, False, False), ('error_code', 'str | None', True, False, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False), ('provider', 'str | None', True, False, True, True, None, False, False, False))),
        (('__init__', _126), ('__repr__', _127), ('__eq__', _128), ('__setattr__', _129), ('__delattr__', _130), ('__hash__', _131),),
    ),
    'alphred.engine.events.Resume': (
        ((('frozen', True),), False, ()),
        (('__init__', _132), ('__repr__', _133), ('__eq__', _134), ('__setattr__', _135), ('__delattr__', _136), ('__hash__', _137),),
    ),
    'alphred.engine.events.RetryRun': (
        ((('frozen', True),), False, ()),
        (('__init__', _138), ('__repr__', _139), ('__eq__', _140), ('__setattr__', _141), ('__delattr__', _142), ('__hash__', _143),),
    ),
    'alphred.engine.events.RunFinished': (
        ((('frozen', True),), False, (('status', 'RunStatus', False, False, True, True, None, True, False, False), ('reason', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _144), ('__repr__', _145), ('__eq__', _146), ('__setattr__', _147), ('__delattr__', _148), ('__hash__', _149),),
    ),
    'alphred.engine.events.RunStarted': (
        ((('frozen', True),), False, ()),
        (('__init__', _150), ('__repr__', _151), ('__eq__', _152), ('__setattr__', _153), ('__delattr__', _154), ('__hash__', _155),),
    ),
    'alphred.engine.events.SetPhaseStatus': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('status', 'NodeStatus', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('values', 'Mapping[str, Any]', False, True, True, True, None, False, False, False))),
        (('__init__', _156), ('__repr__', _157), ('__eq__', _158), ('__setattr__', _159), ('__delattr__', _160), ('__hash__', _161),),
    ),
    'alphred.engine.events.SetRunStatus': (
        ((('frozen', True),), False, (('status', 'RunStatus', False, False, True, True, None, True, False, False), ('reason', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _162), ('__repr__', _163), ('__eq__', _164), ('__setattr__', _165), ('__delattr__', _166), ('__hash__', _167),),
    ),
    'alphred.engine.events.StartPhase': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('visit', 'int', False, False, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _168), ('__repr__', _169), ('__eq__', _170), ('__setattr__', _171), ('__delattr__', _172), ('__hash__', _173),),
    ),
    'alphred.engine.events.StopPhase': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _174), ('__repr__', _175), ('__eq__', _176), ('__setattr__', _177), ('__delattr__', _178), ('__hash__', _179),),
    ),
    'alphred.engine.events.TimedOut': (
        ((('frozen', True),), False, ()),
        (('__init__', _180), ('__repr__', _181), ('__eq__', _182), ('__setattr__', _183), ('__delattr__', _184), ('__hash__', _185),),
    ),
    'alphred.engine.state.Lane': (
        ((('frozen', True),), False, (('head', 'str', False, False, True, True, None, True, False, False), ('current', 'str | None', True, False, True, True, None, True, False, False), ('queued', 'str | None', True, False, True, True, None, True, False, False), ('queued_new_visit', 'bool', True, False, True, True, None, True, False, False), ('arrived', 'bool', True, False, True, True, None, True, False, False), ('last', 'str | None', True, False, True, True, None, True, False, False), ('index', 'int | None', True, False, True, True, None, True, False, False), ('item', 'Any', True, False, True, True, None, True, False, False), ('failed', 'bool', True, False, True, True, None, True, False, False), ('skipped', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _186), ('__repr__', _187), ('__eq__', _188), ('__setattr__', _189), ('__delattr__', _190), ('__hash__', _191),),
    ),
    'alphred.engine.state.MergeState': (
        ((('frozen', True),), False, (('join', 'str', False, False, True, True, None, True, False, False), ('pending', 'tuple[str, ...]', False, False, True, True, None, True, False, False), ('source', 'str | None', True, False, True, True, None, True, False, False), ('ref', 'str | None', True, False, True, True, None, True, False, False), ('conflicts', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('status', 'str', True, False, True, True, None, True, False, False))),
        (('__init__', _192), ('__repr__', _193), ('__eq__', _194), ('__setattr__', _195), ('__delattr__', _196), ('__hash__', _197),),
    ),
    'alphred.engine.state.PhaseState': (
        ((('frozen', True),), False, (('status', 'NodeStatus', True, False, True, True, None, True, False, False), ('attempt', 'int', True, False, True, True, None, True, False, False), ('visits', 'int', True, False, True, True, None, True, False, False), ('entries', 'int', True, False, True, True, None, True, False, False), ('consecutive_failures', 'int', True, False, True, True, None, True, False, False), ('decision', 'str | None', True, False, True, True, None, True, False, False), ('report', 'Report', True, False, True, True, None, True, False, False), ('exit_code', 'int | None', True, False, True, True, None, True, False, False), ('tokens', 'int', True, False, True, True, None, True, False, False), ('cost_usd', 'float', True, False, True, True, None, True, False, False), ('entered_from', 'str | None', True, False, True, True, None, True, False, False), ('checks', 'Mapping[str, Mapping[str, Any]]', False, True, True, True, None, True, False, False), ('tree', 'str | None', True, False, True, True, None, True, False, False), ('stalls', 'int', True, False, True, True, None, True, False, False), ('provider', 'int', True, False, True, True, None, True, False, False))),
        (('__init__', _198), ('__repr__', _199), ('__eq__', _200), ('__setattr__', _201), ('__delattr__', _202), ('__hash__', _203),),
    ),
    'alphred.engine.state.RunState': (
        ((('frozen', True),), False, (('workflow', 'Workflow', False, False, True, False, None, True, False, False), ('status', 'RunStatus', True, False, True, True, None, True, False, False), ('reason', 'str | None', True, False, True, True, None, True, False, False), ('inputs', 'Mapping[str, str]', False, True, True, True, None, True, False, False), ('phases', 'Mapping[str, PhaseState]', False, True, True, True, None, True, False, False), ('edges', 'Mapping[tuple[str, int], int]', False, True, True, True, None, True, False, False), ('steps', 'int', True, False, True, True, None, True, False, False), ('tokens', 'int', True, False, True, True, None, True, False, False), ('cost_usd', 'float', True, False, True, True, None, True, False, False), ('current', 'str | None', True, False, True, True, None, True, False, False), ('queued', 'str | None', True, False, True, True, None, True, False, False), ('queued_new_visit', 'bool', True, False, True, True, None, True, False, False), ('pause_requested', 'bool', True, False, True, True, None, True, False, False), ('history', 'tuple[Step, ...]', True, False, True, True, None, True, False, False), ('deliver', 'bool', True, False, True, True, None, True, False, False), ('delivery', 'str | None', True, False, True, True, None, True, False, False), ('pr_url', 'str | None', True, False, True, True, None, True, False, False), ('finish_reason', 'str | None', True, False, True, True, None, True, False, False), ('delivery_note', 'str | None', True, False, True, True, None, True, False, False), ('lanes', 'tuple[Lane, ...]', True, False, True, True, None, True, False, False), ('merge', 'MergeState | None', True, False, True, True, None, True, False, False), ('interrupting', 'bool', True, False, True, True, None, True, False, False), ('wake_at', 'float | None', True, False, True, True, None, True, False, False), ('waited', 'float', True, False, True, True, None, True, False, False), ('branches', 'Mapping[str, Any] | None', True, False, True, True, None, True, False, False))),
        (('__init__', _204), ('__repr__', _205), ('__eq__', _206), ('__setattr__', _207), ('__delattr__', _208), ('__hash__', _209),),
    ),
    'alphred.engine.state.Step': (
        ((('frozen', True),), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('outcome', 'StepOutcome', False, False, True, True, None, True, False, False), ('decision', 'str | None', True, False, True, True, None, True, False, False), ('next', 'str | None', True, False, True, True, None, True, False, False), ('reason', 'str | None', True, False, True, True, None, True, False, False), ('error_code', 'str | None', True, False, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False), ('provider', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _210), ('__repr__', _211), ('__eq__', _212), ('__setattr__', _213), ('__delattr__', _214), ('__hash__', _215),),
    ),
    'alphred.errors.Diagnostic': (
        ((('frozen', True),), False, (('file', 'str', False, False, True, True, None, True, False, False), ('line', 'int', False, False, True, True, None, True, False, False), ('column', 'int', False, False, True, True, None, True, False, False), ('severity', 'str', False, False, True, True, None, True, False, False), ('message', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _216), ('__repr__', _217), ('__eq__', _218), ('__setattr__', _219), ('__delattr__', _220), ('__hash__', _221),),
    ),
    'alphred.git.command.GitDirs': (
        ((('frozen', True),), False, (('git_dir', 'Path', False, False, True, True, None, True, False, False), ('work_tree', 'Path | None', True, False, True, True, None, True, False, False), ('hooks', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _222), ('__repr__', _223), ('__eq__', _224), ('__setattr__', _225), ('__delattr__', _226), ('__hash__', _227),),
    ),
    'alphred.git.location.RepoLocation': (
        ((('frozen', True),), False, (('root', 'Path', False, False, True, True, None, True, False, False), ('git_common_dir', 'Path', False, False, True, True, None, True, False, False))),
        (('__init__', _228), ('__repr__', _229), ('__eq__', _230), ('__setattr__', _231), ('__delattr__', _232), ('__hash__', _233),),
    ),
    'alphred.git.merges.MergeOutcome': (
        ((('frozen', True),), False, (('sha', 'str | None', False, False, True, True, None, True, False, False), ('conflicts', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('already', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _234), ('__repr__', _235), ('__eq__', _236), ('__setattr__', _237), ('__delattr__', _238), ('__hash__', _239),),
    ),
    'alphred.git.snapshot.WorktreeSnapshot': (
        ((('frozen', True),), False, (('head', 'str', False, False, True, True, None, True, False, False), ('entries', 'tuple[tuple[str, _StatKey], ...]', False, False, True, True, None, True, False, False), ('watched', 'tuple[tuple[str, _StatKey | None], ...]', False, False, True, True, None, True, False, False), ('racy_files', 'tuple[tuple[str, bytes], ...]', False, False, True, True, None, True, False, False), ('racy_dirs', 'tuple[tuple[str, tuple[str, ...]], ...]', False, False, True, True, None, True, False, False))),
        (('__init__', _240), ('__repr__', _241), ('__eq__', _242), ('__setattr__', _243), ('__delattr__', _244), ('__hash__', _245),),
    ),
    'alphred.git.tamper.WorktreeSeal': (
        ((('frozen', True),), False, (('worktree', 'Path', False, False, True, True, None, True, False, False), ('files', 'tuple[_Watched, ...]', False, False, True, True, None, True, False, False), ('hooks', 'Path | None', False, False, True, True, None, True, False, False), ('hook_entries', 'tuple[tuple[str, bytes | None], ...]', False, False, True, True, None, True, False, False))),
        (('__init__', _246), ('__repr__', _247), ('__eq__', _248), ('__setattr__', _249), ('__delattr__', _250), ('__hash__', _251),),
    ),
    'alphred.git.tamper._Watched': (
        ((('frozen', True),), False, (('path', 'Path', False, False, True, True, None, True, False, False), ('key', '_StatKey | None', False, False, True, True, None, True, False, False), ('digest', 'bytes | None', False, False, True, True, None, True, False, False), ('content', 'bytes | None', False, False, True, True, None, True, False, False), ('name', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _252), ('__repr__', _253), ('__eq__', _254), ('__setattr__', _255), ('__delattr__', _256), ('__hash__', _257),),
    ),
    'alphred.git.worktrees.CommitResult': (
        ((('frozen', True),), False, (('sha', 'str', False, False, True, True, None, True, False, False), ('parent', 'str', False, False, True, True, None, True, False, False), ('diff', 'str', False, False, True, True, None, True, False, False), ('files_changed', 'int', False, False, True, True, None, True, False, False), ('insertions', 'int', False, False, True, True, None, True, False, False), ('deletions', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _258), ('__repr__', _259), ('__eq__', _260), ('__setattr__', _261), ('__delattr__', _262), ('__hash__', _263),),
    ),
    'alphred.git.worktrees.ResolvedBase': (
        ((('frozen', True),), False, (('sha', 'str', False, False, True, True, None, True, False, False), ('ref_name', 'str | None', False, False, True, True, None, True, False, False))),
        (('__init__', _264), ('__repr__', _265), ('__eq__', _266), ('__setattr__', _267), ('__delattr__', _268), ('__hash__', _269),),
    ),
    'alphred.git.worktrees.Worktree': (
        ((('frozen', True),), False, (('path', 'Path', False, False, True, True, None, True, False, False), ('branch', 'str', False, False, True, True, None, True, False, False), ('reused', 'bool', False, False, True, True, None, True, False, False))),
        (('__init__', _270), ('__repr__', _271), ('__eq__', _272), ('__setattr__', _273), ('__delattr__', _274), ('__hash__', _275),),
    ),
    'alphred.guards.ast.And': (
        ((('frozen', True),), False, (('left', 'Expr', False, False, True, True, None, True, False, False), ('right', 'Expr', False, False, True, True, None, True, False, False))),
        (('__init__', _276), ('__repr__', _277), ('__eq__', _278), ('__setattr__', _279), ('__delattr__', _280), ('__hash__', _281),),
    ),
    'alphred.guards.ast.Compare': (
        ((('frozen', True),), False, (('op', 'CompareOp', False, False, True, True, None, True, False, False), ('left', 'Value', False, False, True, True, None, True, False, False), ('right', 'Value', False, False, True, True, None, True, False, False))),
        (('__init__', _282), ('__repr__', _283), ('__eq__', _284), ('__setattr__', _285), ('__delattr__', _286), ('__hash__', _287),),
    ),
    'alphred.guards.ast.ListExpr': (
        ((('frozen', True),), False, (('items', 'tuple[Value, ...]', False, False, True, True, None, True, False, False),)),
        (('__init__', _288), ('__repr__', _289), ('__eq__', _290), ('__setattr__', _291), ('__delattr__', _292), ('__hash__', _293),),
    ),
    'alphred.guards.ast.Literal': (
        ((('frozen', True),), False, (('value', 'Scalar', False, False, True, True, None, True, False, False),)),
        (('__init__', _294), ('__repr__', _295), ('__eq__', _296), ('__setattr__', _297), ('__delattr__', _298), ('__hash__', _299),),
    ),
    'alphred.guards.ast.Not': (
        ((('frozen', True),), False, (('operand', 'Expr', False, False, True, True, None, True, False, False),)),
        (('__init__', _300), ('__repr__', _301), ('__eq__', _302), ('__setattr__', _303), ('__delattr__', _304), ('__hash__', _305),),
    ),
    'alphred.guards.ast.Or': (
        ((('frozen', True),), False, (('left', 'Expr', False, False, True, True, None, True, False, False), ('right', 'Expr', False, False, True, True, None, True, False, False))),
        (('__init__', _306), ('__repr__', _307), ('__eq__', _308), ('__setattr__', _309), ('__delattr__', _310), ('__hash__', _311),),
    ),
    'alphred.guards.ast.Path': (
        ((('frozen', True),), False, (('parts', 'tuple[str, ...]', False, False, True, True, None, True, False, False),)),
        (('__init__', _312), ('__repr__', _313), ('__eq__', _314), ('__setattr__', _315), ('__delattr__', _316), ('__hash__', _317),),
    ),
    'alphred.guards.explain.PathReading': (
        ((('frozen', True),), False, (('path', 'str', False, False, True, True, None, True, False, False), ('value', 'str', False, False, True, True, None, True, False, False), ('note', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _318), ('__repr__', _319), ('__eq__', _320), ('__setattr__', _321), ('__delattr__', _322), ('__hash__', _323),),
    ),
    'alphred.guards.shell.Spot': (
        ((('frozen', True),), False, (('context', 'str', False, False, True, True, None, True, False, False), ('outer', 'str', True, False, True, True, None, True, False, False))),
        (('__init__', _324), ('__repr__', _325), ('__eq__', _326), ('__setattr__', _327), ('__delattr__', _328), ('__hash__', _329),),
    ),
    'alphred.guards.templates.Placeholder': (
        ((('frozen', True),), False, (('path', 'tuple[str, ...]', False, False, True, True, None, True, False, False), ('offset', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _330), ('__repr__', _331), ('__eq__', _332), ('__setattr__', _333), ('__delattr__', _334), ('__hash__', _335),),
    ),
    'alphred.guards.templates.Template': (
        ((('frozen', True),), False, (('text', 'str', False, False, True, True, None, True, False, False), ('parts', 'tuple[str | Placeholder, ...]', False, False, True, True, None, True, False, False))),
        (('__init__', _336), ('__repr__', _337), ('__eq__', _338), ('__setattr__', _339), ('__delattr__', _340), ('__hash__', _341),),
    ),
    'alphred.operations.clones.Identity': (
        ((('frozen', True),), False, (('url', 'str | None', False, False, True, True, None, True, False, False), ('root', 'str | None', False, False, True, True, None, True, False, False))),
        (('__init__', _342), ('__repr__', _343), ('__eq__', _344), ('__setattr__', _345), ('__delattr__', _346), ('__hash__', _347),),
    ),
    'alphred.operations.workspace.StoredRun': (
        ((('frozen', True),), False, (('workflow', 'Workflow', False, False, True, True, None, True, False, False), ('state', 'RunState', False, False, True, True, None, True, False, False), ('options', 'RunOptions', False, False, True, True, None, True, False, False), ('runtime', 'dict[str, Any]', False, False, True, True, None, True, False, False))),
        (('__init__', _348), ('__repr__', _349), ('__eq__', _350), ('__setattr__', _351), ('__delattr__', _352), ('__hash__', _353),),
    ),
    'alphred.operations.workspace.Workspace': (
        ((), False, (('store', 'SqlRunStore', False, False, True, True, None, True, False, False), ('location', 'RepoLocation', False, False, True, True, None, True, False, False), ('registry_for', 'Callable[[Workflow, bool], ProviderRegistry]', False, False, True, True, None, True, False, False), ('progress', 'Callable[[int], Progress]', False, False, True, True, None, True, False, False), ('events', 'JsonlEvents | None', True, False, True, True, None, True, False, False), ('on_runner', 'Callable[[Runner], None] | None', True, False, True, True, None, True, False, False), ('clock', 'Clock', True, False, True, True, None, True, False, False), ('waits', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _354), ('__repr__', _355), ('__eq__', _356), ('__hash__', None),),
    ),
    'alphred.providers.base.ProviderEvent': (
        ((('frozen', True),), False, (('type', 'EventType', False, False, True, True, None, True, False, False), ('content', 'str', True, False, True, True, None, True, False, False), ('timestamp', 'float', False, True, True, True, None, True, False, False), ('metadata', 'Mapping[str, Any]', False, True, True, True, None, True, False, False))),
        (('__init__', _357), ('__repr__', _358), ('__eq__', _359), ('__setattr__', _360), ('__delattr__', _361), ('__hash__', _362),),
    ),
    'alphred.providers.base.ProviderOptions': (
        ((('frozen', True),), False, (('working_directory', 'Path', False, False, True, True, None, True, False, False), ('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('visit', 'int', True, False, True, True, None, True, False, False), ('system_prompt', 'str | None', True, False, True, True, None, True, False, False), ('context', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('timeout', 'float | None', True, False, True, True, None, True, False, False), ('model', 'str | None', True, False, True, True, None, True, False, False), ('decisions', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('settings', 'Mapping[str, Any]', False, True, True, True, None, True, False, False), ('cancel', 'asyncio.Event | None', True, False, True, True, None, True, False, False), ('environment', 'Mapping[str, str]', False, True, True, True, None, True, False, False), ('base_environment', 'Mapping[str, str] | None', True, False, True, True, None, True, False, False), ('sandbox', 'SandboxPolicy | None', True, False, True, True, None, True, False, False), ('confine', 'Callable[[Sequence[str]], list[str]] | None', True, False, True, True, None, True, False, False), ('tools', 'ToolPolicy | None', True, False, True, True, None, True, False, False), ('mcp', 'tuple[McpServer, ...]', True, False, True, True, None, True, False, False), ('mcp_env', 'Mapping[str, Mapping[str, str]]', False, True, True, True, None, True, False, False), ('output', 'Mapping[str, Any] | None', True, False, True, True, None, True, False, False))),
        (('__init__', _363), ('__repr__', _364), ('__eq__', _365), ('__setattr__', _366), ('__delattr__', _367), ('__hash__', _368),),
    ),
    'alphred.providers.base.Readiness': (
        ((('frozen', True),), False, (('ready', 'bool', False, False, True, True, None, True, False, False), ('detail', 'str', True, False, True, True, None, True, False, False), ('depends_on_phase', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _369), ('__repr__', _370), ('__eq__', _371), ('__setattr__', _372), ('__delattr__', _373), ('__hash__', _374),),
    ),
    'alphred.providers.descriptor.Capabilities': (
        ((('frozen', True),), False, (('allowed_tools', 'bool', True, False, True, True, None, True, False, False), ('disallowed_tools', 'bool', True, False, True, True, None, True, False, False), ('mcp_tool_filters', 'bool', True, False, True, True, None, True, False, False), ('sandbox', 'bool', True, False, True, True, None, True, False, False), ('mcp', 'bool', True, False, True, True, None, True, False, False), ('tool_names', 'tuple[str, ...] | None', True, False, True, True, None, True, False, False), ('tool_patterns', 'bool', True, False, True, True, None, True, False, False), ('tools_note', 'str', True, False, True, True, None, True, False, False))),
        (('__init__', _375), ('__repr__', _376), ('__eq__', _377), ('__setattr__', _378), ('__delattr__', _379), ('__hash__', _380),),
    ),
    'alphred.providers.descriptor.ProviderDescriptor': (
        ((('frozen', True),), False, (('name', 'str', False, False, True, True, None, True, False, False), ('factory', 'ProviderFactory', False, False, True, True, None, True, False, False), ('summary', 'str', True, False, True, True, None, True, False, False), ('phase_keys', 'Sequence[PhaseKey]', True, False, True, True, None, True, False, False), ('validate_phase', 'Callable[[ProviderPhase], None] | None', True, False, True, True, None, True, False, False), ('error_codes', 'Sequence[str]', True, False, True, True, None, True, False, False), ('capabilities', 'Capabilities', True, False, True, True, None, True, False, False))),
        (('__init__', _381), ('__repr__', _382), ('__eq__', _383), ('__setattr__', _384), ('__delattr__', _385), ('__hash__', _386),),
    ),
    'alphred.runtime.attempt_context.AttemptStats': (
        ((), False, (('started', 'float', False, True, True, True, None, True, False, False), ('events', 'int', True, False, True, True, None, True, False, False), ('tokens', 'int', True, False, True, True, None, True, False, False), ('cost_usd', 'float', True, False, True, True, None, True, False, False), ('child_steps', 'int', True, False, True, True, None, True, False, False), ('message', 'str | None', True, False, True, True, None, True, False, False), ('details', 'dict[str, Any]', False, True, True, True, None, True, False, False), ('output_tail', 'str', True, False, True, True, None, True, False, False), ('pause_unread', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _387), ('__repr__', _388), ('__eq__', _389), ('__hash__', None),),
    ),
    'alphred.runtime.attempt_context.PhaseContext': (
        ((), False, (('store', 'SqlRunStore', False, False, True, True, None, True, False, False), ('run_id', 'int', False, False, True, True, None, True, False, False), ('workflow', 'Workflow', False, False, True, True, None, True, False, False), ('worktree', 'Path', False, False, True, True, None, True, False, False), ('worktrees', 'GitWorktrees', False, False, True, True, None, True, False, False), ('registry', 'ProviderRegistry', False, False, True, True, None, True, False, False), ('redactor', 'Redactor', False, False, True, True, None, True, False, False), ('environ', 'dict[str, str]', False, False, True, True, None, True, False, False), ('on_event', 'Callable[[str, int, int, ProviderEvent], None] | None', True, False, True, True, None, True, False, False), ('dry_run_commands', 'bool', True, False, True, True, None, True, False, False), ('pending', 'list[Callable[[StoreTransaction], object]]', False, True, True, True, None, True, False, False), ('cancel', 'asyncio.Event', False, True, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False), ('clock', 'Clock', True, False, True, True, None, True, False, False), ('files', 'RunFiles | None', True, False, True, True, None, True, False, False), ('pull_request', 'PullRequestPlan | None', True, False, True, True, None, True, False, False), ('describe', 'PullRequestText | None', True, False, True, True, None, True, False, False), ('environments', 'dict[tuple[str, ...], dict[str, str]]', False, True, True, True, None, True, False, False), ('children', 'Any', True, False, True, True, None, True, False, False), ('prepared', 'dict[tuple[str, int], Prepared]', False, True, True, True, None, True, False, False), ('flusher', 'Any', True, False, True, True, None, True, False, False), ('deadlines', 'Any', True, False, True, True, None, True, False, False), ('run_thread', 'RunThread | None', True, False, True, True, None, True, False, False))),
        (('__init__', _390), ('__repr__', _391), ('__eq__', _392), ('__hash__', None),),
    ),
    'alphred.runtime.attempt_context.Posted': (
        ((('frozen', True),), False, (('events', 'tuple[Event, ...]', False, False, True, True, None, True, False, False), ('attempt', 'tuple[str, int] | None', True, False, True, True, None, True, False, False), ('stats', 'AttemptStats | None', True, False, True, True, None, True, False, False), ('joined', 'Joined | None', True, False, True, True, None, True, False, False))),
        (('__init__', _393), ('__repr__', _394), ('__eq__', _395), ('__setattr__', _396), ('__delattr__', _397), ('__hash__', _398),),
    ),
    'alphred.runtime.attempt_context.Prepared': (
        ((('frozen', True),), False, (('node_id', 'int', False, False, True, True, None, True, False, False), ('first', 'int', False, False, True, True, None, True, False, False), ('reports', 'dict[str, UpstreamReport]', False, False, True, True, None, True, False, False), ('start_sha', 'str', False, False, True, True, None, True, False, False), ('seal', 'WorktreeSeal', False, False, True, True, None, True, False, False))),
        (('__init__', _399), ('__repr__', _400), ('__eq__', _401), ('__setattr__', _402), ('__delattr__', _403), ('__hash__', _404),),
    ),
    'alphred.runtime.attempts.Active': (
        ((), False, (('phase', 'str', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('branch', 'str | None', False, False, True, True, None, True, False, False), ('stats', 'AttemptStats', False, False, True, True, None, True, False, False), ('task', 'asyncio.Future[Any] | None', True, False, True, True, None, True, False, False), ('wake', 'asyncio.Event', False, True, True, True, None, True, False, False), ('stopped', 'bool', True, False, True, True, None, True, False, False), ('joined', 'Joined | None', True, False, True, True, None, True, False, False))),
        (('__init__', _405), ('__repr__', _406), ('__eq__', _407), ('__hash__', None),),
    ),
    'alphred.runtime.attempts._Failure': (
        ((), False, (('attempt', 'int', False, False, True, True, None, True, False, False), ('kind', 'str', False, False, True, True, None, True, False, False), ('message', 'str', False, False, True, True, None, True, False, False), ('retry_after', 'float | None', False, False, True, True, None, True, False, False))),
        (('__init__', _408), ('__repr__', _409), ('__eq__', _410), ('__hash__', None),),
    ),
    'alphred.runtime.delivery.PullRequestPlan': (
        ((('frozen', True),), False, (('remote', 'str', False, False, True, True, None, True, False, False), ('base', 'str', False, False, True, True, None, True, False, False), ('draft', 'bool', False, False, True, True, None, True, False, False), ('provider', 'str | None', False, False, True, True, None, True, False, False), ('at_end', 'bool', True, False, True, True, None, True, False, False), ('required', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _411), ('__repr__', _412), ('__eq__', _413), ('__setattr__', _414), ('__delattr__', _415), ('__hash__', _416),),
    ),
    'alphred.runtime.joined.Joined': (
        ((), False, (('event', 'Event', False, False, True, True, None, True, False, False), ('new', 'RunState | None', False, False, True, True, None, True, False, False), ('effects', 'tuple[Effect, ...]', True, False, True, True, None, True, False, False), ('measured', 'dict[tuple[str, int], AttemptStats]', False, True, True, True, None, True, False, False), ('held', 'list[Write]', False, True, True, True, None, True, False, False), ('error', 'Exception | None', True, False, True, True, None, True, False, False))),
        (('__init__', _417), ('__repr__', _418), ('__eq__', _419), ('__hash__', None),),
    ),
    'alphred.runtime.options.RunOptions': (
        ((), False, (('inputs', 'Mapping[str, str]', False, True, True, True, None, True, False, False), ('base', 'str | None', True, False, True, True, None, True, False, False), ('resolved_base', 'ResolvedBase | None', True, False, True, True, None, True, False, False), ('branch', 'str | None', True, False, True, True, None, True, False, False), ('branch_template', 'str | None', True, False, True, True, None, True, False, False), ('keep_worktree', 'bool', True, False, True, True, None, True, False, False), ('approve_all', 'bool', True, False, True, True, None, True, False, False), ('dry_run', 'bool', True, False, True, True, None, True, False, False), ('dry_run_scope', 'str', True, False, True, True, None, True, False, False), ('pull_request', 'PullRequestPlan | None', True, False, True, True, None, True, False, False), ('pr_branch', 'bool', True, False, True, True, None, True, False, False), ('environ', 'Mapping[str, str]', False, True, True, True, None, True, False, False), ('clock', 'Clock', True, False, True, True, None, True, False, False))),
        (('__init__', _420), ('__repr__', _421), ('__eq__', _422), ('__hash__', None),),
    ),
    'alphred.runtime.persist.Persister': (
        ((), False, (('store', 'SqlRunStore', False, False, True, True, None, True, False, False), ('run_id', 'int', False, False, True, True, None, True, False, False), ('owner', 'str', False, False, True, True, None, True, False, False), ('ttl', 'float', False, False, True, True, None, True, False, False), ('runtime', 'Mapping[str, Any]', False, False, True, True, None, True, False, False), ('_edge_ids', 'dict[tuple[str, int], int] | None', True, False, True, True, None, True, False, False), ('_state', 'StateText | None', True, False, True, True, None, True, False, False))),
        (('__init__', _423), ('__repr__', _424), ('__eq__', _425), ('__hash__', None),),
    ),
    'alphred.runtime.run_files.LocalFile': (
        ((('frozen', True),), False, (('path', 'str', False, False, True, True, None, True, False, False), ('full', 'Path', False, False, True, True, None, True, False, False), ('size', 'int', False, False, True, True, None, True, False, False), ('mode', 'int', False, False, True, True, None, True, False, False), ('mtime_ns', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _426), ('__repr__', _427), ('__eq__', _428), ('__setattr__', _429), ('__delattr__', _430), ('__hash__', _431),),
    ),
    'alphred.runtime.run_files.RunFiles': (
        ((), False, (('run_id', 'int', False, False, True, True, None, True, False, False), ('root', 'Path', False, False, True, True, None, True, False, False), ('limit', 'int', False, False, True, True, None, True, False, False), ('memory', 'bool', True, False, True, True, None, True, False, False), ('_lock', 'threading.Lock', False, True, True, False, None, True, False, False), ('_empty', 'set[str]', False, True, True, False, None, True, False, False))),
        (('__init__', _432), ('__repr__', _433), ('__eq__', _434), ('__hash__', None),),
    ),
    'alphred.runtime.sandbox.Sandbox': (
        ((('frozen', True),), False, (('bwrap', 'str', False, False, True, True, None, True, False, False), ('worktree', 'Path', False, False, True, True, None, True, False, False), ('git_dirs', 'tuple[Path, ...]', False, False, True, True, None, True, False, False), ('tmp', 'Path', False, False, True, True, None, True, False, False), ('network', 'bool', True, False, True, True, None, True, False, False), ('writable', 'tuple[Path, ...]', True, False, True, True, None, True, False, False))),
        (('__init__', _435), ('__repr__', _436), ('__eq__', _437), ('__setattr__', _438), ('__delattr__', _439), ('__hash__', _440),),
    ),
    'alphred.runtime.typed_output.Answer': (
        ((('frozen', True),), False, (('decision', 'str | None', False, False, True, True, None, True, False, False), ('report', 'dict[str, Any] | None', False, False, True, True, None, True, False, False), ('violations', 'tuple[str, ...]', False, False, True, True, None, True, False, False))),
        (('__init__', _441), ('__repr__', _442), ('__eq__', _443), ('__setattr__', _444), ('__delattr__', _445), ('__hash__', _446),),
    ),
    'alphred.store.migrations.Migration': (
        ((('frozen', True),), False, (('version', 'int', False, False, True, True, None, True, False, False), ('name', 'str', False, False, True, True, None, True, False, False), ('apply', 'Callable[[Connection], None]', False, False, True, True, None, True, False, False))),
        (('__init__', _447), ('__repr__', _448), ('__eq__', _449), ('__setattr__', _450), ('__delattr__', _451), ('__hash__', _452),),
    ),
    'alphred.store.owners.LeaseOwner': (
        ((('frozen', True),), False, (('host', 'str', False, False, True, True, None, True, False, False), ('pid', 'int', False, False, True, True, None, True, False, False), ('start', 'str', False, False, True, True, None, True, False, False), ('token', 'str', False, False, True, True, None, True, False, False))),
        (('__init__', _453), ('__repr__', _454), ('__eq__', _455), ('__setattr__', _456), ('__delattr__', _457), ('__hash__', _458),),
    ),
    'alphred.store.records.EventRow': (
        ((('frozen', True),), False, (('workflow_run_id', 'int', False, False, True, True, None, True, False, False), ('run_node_id', 'int', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('sequence', 'int', False, False, True, True, None, True, False, False), ('event_type', 'str', False, False, True, True, None, True, False, False), ('content', 'str | None', True, False, True, True, None, True, False, False), ('timestamp', 'datetime | None', True, False, True, True, None, True, False, False), ('metadata', 'Mapping[str, Any] | None', True, False, True, True, None, True, False, False))),
        (('__init__', _459), ('__repr__', _460), ('__eq__', _461), ('__setattr__', _462), ('__delattr__', _463), ('__hash__', _464),),
    ),
    'alphred.store.records.NodeRecord': (
        ((('frozen', True),), False, (('id', 'int', False, False, True, True, None, True, False, False), ('run_id', 'int', False, False, True, True, None, True, False, False), ('tree_node_id', 'int', False, False, True, True, None, True, False, False), ('node_key', 'str', False, False, True, True, None, True, False, False), ('sequence_index', 'int', False, False, True, True, None, True, False, False), ('status', 'NodeStatus', False, False, True, True, None, True, False, False), ('attempt', 'int', False, False, True, True, None, True, False, False), ('visits', 'int', False, False, True, True, None, True, False, False), ('decision', 'str | None', False, False, True, True, None, True, False, False), ('exit_code', 'int | None', False, False, True, True, None, True, False, False), ('tokens', 'int', False, False, True, True, None, True, False, False), ('cost_usd', 'float', False, False, True, True, None, True, False, False), ('lease_owner', 'str | None', False, False, True, True, None, True, False, False), ('lease_expires_at', 'datetime | None', False, False, True, True, None, True, False, False), ('started_at', 'datetime | None', False, False, True, True, None, True, False, False), ('completed_at', 'datetime | None', False, False, True, True, None, True, False, False), ('updated_at', 'datetime', False, False, True, True, None, True, False, False))),
        (('__init__', _465), ('__repr__', _466), ('__eq__', _467), ('__setattr__', _468), ('__delattr__', _469), ('__hash__', _470),),
    ),
    'alphred.store.records.RunRecord': (
        ((('frozen', True),), False, (('id', 'int', False, False, True, True, None, True, False, False), ('tree_id', 'int', False, False, True, True, None, True, False, False), ('tree_key', 'str', False, False, True, True, None, True, False, False), ('tree_version', 'int', False, False, True, True, None, True, False, False), ('status', 'RunStatus', False, False, True, True, None, True, False, False), ('reason', 'str | None', False, False, True, True, None, True, False, False), ('inputs', 'Mapping[str, Any]', False, False, True, True, None, True, False, False), ('branch', 'str | None', False, False, True, True, None, True, False, False), ('base_sha', 'str | None', False, False, True, True, None, True, False, False), ('head_sha', 'str | None', False, False, True, True, None, True, False, False), ('base_ref', 'str | None', False, False, True, True, None, True, False, False), ('worktree_path', 'str | None', False, False, True, True, None, True, False, False), ('repo_path', 'str | None', False, False, True, True, None, True, False, False), ('pr_url', 'str | None', False, False, True, True, None, True, False, False), ('tokens', 'int', False, False, True, True, None, True, False, False), ('cost_usd', 'float', False, False, True, True, None, True, False, False), ('steps', 'int', False, False, True, True, None, True, False, False), ('pause_requested', 'bool', False, False, True, True, None, True, False, False), ('cancel_requested', 'bool', False, False, True, True, None, True, False, False), ('lease_owner', 'str | None', False, False, True, True, None, True, False, False), ('lease_expires_at', 'datetime | None', False, False, True, True, None, True, False, False), ('created_at', 'datetime', False, False, True, True, None, True, False, False), ('started_at', 'datetime | None', False, False, True, True, None, True, False, False), ('completed_at', 'datetime | None', False, False, True, True, None, True, False, False), ('updated_at', 'datetime', False, False, True, True, None, True, False, False), ('nodes', 'tuple[NodeRecord, ...]', True, False, True, True, None, True, False, False), ('priority', 'int', True, False, True, True, None, True, False, False), ('requires', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('queued', 'bool', True, False, True, True, None, True, False, False), ('request', 'Mapping[str, Any] | None', True, False, True, True, None, True, False, False), ('repo_name', 'str | None', True, False, True, True, None, True, False, False), ('repo_url', 'str | None', True, False, True, True, None, True, False, False), ('repo_root', 'str | None', True, False, True, True, None, True, False, False), ('wake_at', 'datetime | None', True, False, True, True, None, True, False, False), ('parent_run_id', 'int | None', True, False, True, True, None, True, False, False), ('parent_step', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _471), ('__repr__', _472), ('__eq__', _473), ('__setattr__', _474), ('__delattr__', _475), ('__hash__', _476),),
    ),
    'alphred.views.progress.Active': (
        ((('frozen', True),), False, (('label', 'str', False, False, True, True, None, True, False, False), ('branch', 'str | None', False, False, True, True, None, True, False, False), ('started', 'float', False, False, True, True, None, True, False, False), ('last_output', 'list[str]', False, True, True, True, None, True, False, False))),
        (('__init__', _477), ('__repr__', _478), ('__eq__', _479), ('__setattr__', _480), ('__delattr__', _481), ('__hash__', _482),),
    ),
    'alphred.workflow.globs.PathGlobs': (
        ((('frozen', True),), False, (('patterns', 'tuple[str, ...]', False, False, True, True, None, True, False, False),)),
        (('__init__', _483), ('__repr__', _484), ('__eq__', _485), ('__setattr__', _486), ('__delattr__', _487), ('__hash__', _488),),
    ),
    'alphred.workflow.layout.Graph': (
        ((('frozen', True),), False, (('start', 'str', False, False, True, True, None, True, False, False), ('nodes', 'tuple[GraphNode, ...]', False, False, True, True, None, True, False, False), ('edges', 'tuple[GraphEdge, ...]', False, False, True, True, None, True, False, False))),
        (('__init__', _489), ('__repr__', _490), ('__eq__', _491), ('__setattr__', _492), ('__delattr__', _493), ('__hash__', _494),),
    ),
    'alphred.workflow.layout.GraphEdge': (
        ((('frozen', True),), False, (('source', 'str', False, False, True, True, None, True, False, False), ('target', 'str', False, False, True, True, None, True, False, False), ('label', 'str', True, False, True, True, None, True, False, False), ('kind', 'str', True, False, True, True, None, True, False, False), ('back', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _495), ('__repr__', _496), ('__eq__', _497), ('__setattr__', _498), ('__delattr__', _499), ('__hash__', _500),),
    ),
    'alphred.workflow.layout.GraphNode': (
        ((('frozen', True),), False, (('key', 'str', False, False, True, True, None, True, False, False), ('kind', 'str', False, False, True, True, None, True, False, False), ('detail', 'str', True, False, True, True, None, True, False, False), ('join', 'str | None', True, False, True, True, None, True, False, False), ('each', 'str | None', True, False, True, True, None, True, False, False), ('lane', 'str | None', True, False, True, True, None, True, False, False), ('rank', 'int', True, False, True, True, None, True, False, False), ('column', 'float', True, False, True, True, None, True, False, False))),
        (('__init__', _501), ('__repr__', _502), ('__eq__', _503), ('__setattr__', _504), ('__delattr__', _505), ('__hash__', _506),),
    ),
    'alphred.workflow.model.Check': (
        ((('frozen', True),), False, (('name', 'str', False, False, True, True, None, True, False, False), ('kind', 'CheckKind', False, False, True, True, None, True, False, False), ('run', 'str | None', True, False, True, True, None, True, False, False), ('template', 'Template | None', True, False, True, True, None, True, False, False), ('paths', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('required', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('timeout', 'float', True, False, True, True, None, True, False, False), ('pos', 'SourcePos', True, False, True, True, None, True, False, False))),
        (('__init__', _507), ('__repr__', _508), ('__eq__', _509), ('__setattr__', _510), ('__delattr__', _511), ('__hash__', _512),),
    ),
    'alphred.workflow.model.FanOut': (
        ((('frozen', True),), False, (('source', 'str', False, False, True, True, None, True, False, False), ('priority', 'int', False, False, True, True, None, True, False, False), ('branches', 'tuple[str, ...]', False, False, True, True, None, True, False, False), ('regions', 'Mapping[str, frozenset[str]]', False, True, True, True, None, True, False, False), ('joins', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('ends', 'tuple[tuple[str, int], ...]', True, False, True, True, None, True, False, False))),
        (('__init__', _513), ('__repr__', _514), ('__eq__', _515), ('__setattr__', _516), ('__delattr__', _517), ('__hash__', _518),),
    ),
    'alphred.workflow.model.Limits': (
        ((('frozen', True),), False, (('max_steps', 'int', True, False, True, True, None, True, False, False), ('max_tokens', 'int | None', True, False, True, True, None, True, False, False), ('max_cost_usd', 'float | None', True, False, True, True, None, True, False, False), ('max_parallel', 'int', True, False, True, True, None, True, False, False), ('max_wait', 'float', True, False, True, True, None, True, False, False), ('max_stalls', 'int', True, False, True, True, None, True, False, False), ('max_artifact_bytes', 'int', True, False, True, True, None, True, False, False), ('max_items', 'int', True, False, True, True, None, True, False, False), ('timeout', 'float | None', True, False, True, True, None, True, False, False))),
        (('__init__', _519), ('__repr__', _520), ('__eq__', _521), ('__setattr__', _522), ('__delattr__', _523), ('__hash__', _524),),
    ),
    'alphred.workflow.model.Phase': (
        ((('frozen', True),), False, (('key', 'str', False, False, True, True, None, True, False, False), ('type', 'PhaseType', False, False, True, True, None, True, False, False), ('sequence_index', 'int', False, False, True, True, None, True, False, False), ('transitions', 'tuple[Transition, ...]', True, False, True, True, None, True, False, False), ('provider', 'str | None', True, False, True, True, None, True, False, False), ('model', 'str | None', True, False, True, True, None, True, False, False), ('prompt', 'str | None', True, False, True, True, None, True, False, False), ('prompt_file', 'str | None', True, False, True, True, None, True, False, False), ('run', 'str | None', True, False, True, True, None, True, False, False), ('allow_failure', 'bool', True, False, True, True, None, True, False, False), ('message', 'str | None', True, False, True, True, None, True, False, False), ('decisions', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('max_retries', 'int', True, False, True, True, None, True, False, False), ('max_visits', 'int', True, False, True, True, None, True, False, False), ('timeout', 'float | None', True, False, True, True, None, True, False, False), ('idle_timeout', 'float', True, False, True, True, None, True, False, False), ('context', 'tuple[str, ...] | None', True, False, True, True, None, True, False, False), ('max_reports', 'int | None', True, False, True, True, None, True, False, False), ('options', 'Mapping[str, Any]', False, True, True, True, None, True, False, False), ('templates', 'Mapping[str, Template]', False, True, True, True, None, True, False, False), ('checks', 'tuple[Check, ...]', True, False, True, True, None, True, False, False), ('pos', 'SourcePos', True, False, True, True, None, True, False, False), ('join', 'str | None', True, False, True, True, None, True, False, False), ('on_conflict', 'str | None', True, False, True, True, None, True, False, False), ('sandbox', 'SandboxPolicy | None', True, False, True, True, None, True, False, False), ('env', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('tools', 'ToolPolicy | None', True, False, True, True, None, True, False, False), ('mcp', 'tuple[McpServer, ...]', True, False, True, True, None, True, False, False), ('output', 'Mapping[str, Any] | None', True, False, True, True, None, True, False, False), ('shell', 'str', True, False, True, True, None, True, False, False), ('fallback', 'tuple[Fallback, ...]', True, False, True, True, None, True, False, False), ('uses', 'str | None', True, False, True, True, None, True, False, False), ('child', 'Workflow | None', True, False, True, False, None, False, False, False), ('with_inputs', 'tuple[str, ...]', True, False, True, True, None, True, False, False))),
        (('__init__', _525), ('__repr__', _526), ('__eq__', _527), ('__setattr__', _528), ('__delattr__', _529), ('__hash__', _530),),
    ),
    'alphred.workflow.model.SourcePos': (
        ((('frozen', True),), False, (('line', 'int', False, False, True, True, None, True, False, False), ('column', 'int', False, False, True, True, None, True, False, False))),
        (('__init__', _531), ('__repr__', _532), ('__eq__', _533), ('__setattr__', _534), ('__delattr__', _535), ('__hash__', _536),),
    ),
    'alphred.workflow.model.Transition': (
        ((('frozen', True),), False, (('target', 'str', False, False, True, True, None, True, False, False), ('priority', 'int', False, False, True, True, None, True, False, False), ('when', 'str | None', True, False, True, True, None, True, False, False), ('guard', 'Expr | None', True, False, True, True, None, True, False, False), ('max', 'int | None', True, False, True, True, None, True, False, False), ('pos', 'SourcePos', True, False, True, True, None, True, False, False), ('fan_out', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('branch_guards', 'tuple[Expr | None, ...]', True, False, True, True, None, True, False, False), ('branch_whens', 'tuple[str | None, ...]', True, False, True, True, None, True, False, False), ('for_each', 'tuple[str, ...] | None', True, False, True, True, None, True, False, False), ('alias', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _537), ('__repr__', _538), ('__eq__', _539), ('__setattr__', _540), ('__delattr__', _541), ('__hash__', _542),),
    ),
    'alphred.workflow.model.Workflow': (
        ((('frozen', True),), False, (('key', 'str', False, False, True, True, None, True, False, False), ('phases', 'tuple[Phase, ...]', False, False, True, True, None, True, False, False), ('start', 'str', False, False, True, True, None, True, False, False), ('name', 'str | None', True, False, True, True, None, True, False, False), ('description', 'str | None', True, False, True, True, None, True, False, False), ('inputs', 'tuple[InputSpec, ...]', True, False, True, True, None, True, False, False), ('limits', 'Limits', True, False, True, True, None, True, False, False), ('pull_request', 'PullRequestSpec | None', True, False, True, True, None, True, False, False), ('pull_request_title', 'Template | None', True, False, True, True, None, True, False, False), ('pull_request_when', 'Expr | None', True, False, True, True, None, True, False, False), ('source_path', 'str | None', True, False, True, True, None, True, False, False), ('content_hash', 'str', True, False, True, True, None, True, False, False), ('source_text', 'str', True, False, True, False, None, True, False, False), ('source_files', 'Mapping[str, str]', False, True, True, False, None, True, False, False), ('git_hooks', 'bool', True, False, True, True, None, True, False, False), ('memory', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _543), ('__repr__', _544), ('__eq__', _545), ('__setattr__', _546), ('__delattr__', _547), ('__hash__', _548),),
    ),
    'alphred.workflow.options.Fallback': (
        ((('frozen', True),), False, (('provider', 'str', False, False, True, True, None, True, False, False), ('model', 'str | None', True, False, True, True, None, True, False, False), ('options', 'Mapping[str, Any]', False, True, True, True, None, True, False, False))),
        (('__init__', _549), ('__repr__', _550), ('__eq__', _551), ('__setattr__', _552), ('__delattr__', _553), ('__hash__', _554),),
    ),
    'alphred.workflow.options.InputSpec': (
        ((('frozen', True),), False, (('name', 'str', False, False, True, True, None, True, False, False), ('required', 'bool', True, False, True, True, None, True, False, False), ('default', 'str | None', True, False, True, True, None, True, False, False), ('description', 'str | None', True, False, True, True, None, True, False, False))),
        (('__init__', _555), ('__repr__', _556), ('__eq__', _557), ('__setattr__', _558), ('__delattr__', _559), ('__hash__', _560),),
    ),
    'alphred.workflow.options.McpServer': (
        ((('frozen', True),), False, (('name', 'str', False, False, True, True, None, True, False, False), ('command', 'str | None', True, False, True, True, None, True, False, False), ('args', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('env', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('cwd', 'str | None', True, False, True, True, None, True, False, False), ('url', 'str | None', True, False, True, True, None, True, False, False), ('headers', 'tuple[tuple[str, str], ...]', True, False, True, True, None, True, False, False))),
        (('__init__', _561), ('__repr__', _562), ('__eq__', _563), ('__setattr__', _564), ('__delattr__', _565), ('__hash__', _566),),
    ),
    'alphred.workflow.options.PullRequestSpec': (
        ((('frozen', True),), False, (('title', 'str | None', True, False, True, True, None, True, False, False), ('body_from', 'str | None', True, False, True, True, None, True, False, False), ('draft', 'bool', True, False, True, True, None, True, False, False), ('base', 'str | None', True, False, True, True, None, True, False, False), ('provider', 'str | None', True, False, True, True, None, True, False, False), ('when', 'str | None', True, False, True, True, None, True, False, False), ('required', 'bool', True, False, True, True, None, True, False, False))),
        (('__init__', _567), ('__repr__', _568), ('__eq__', _569), ('__setattr__', _570), ('__delattr__', _571), ('__hash__', _572),),
    ),
    'alphred.workflow.options.SandboxPolicy': (
        ((('frozen', True),), False, (('network', 'bool', True, False, True, True, None, True, False, False),)),
        (('__init__', _573), ('__repr__', _574), ('__eq__', _575), ('__setattr__', _576), ('__delattr__', _577), ('__hash__', _578),),
    ),
    'alphred.workflow.options.ToolPolicy': (
        ((('frozen', True),), False, (('allow', 'tuple[str, ...] | None', True, False, True, True, None, True, False, False), ('deny', 'tuple[str, ...]', True, False, True, True, None, True, False, False))),
        (('__init__', _579), ('__repr__', _580), ('__eq__', _581), ('__setattr__', _582), ('__delattr__', _583), ('__hash__', _584),),
    ),
    'alphred.workflow.output.PathType': (
        ((('frozen', True),), False, (('types', 'frozenset[str]', False, False, True, True, None, True, False, False), ('enum', 'tuple[Any, ...] | None', True, False, True, True, None, True, False, False))),
        (('__init__', _585), ('__repr__', _586), ('__eq__', _587), ('__setattr__', _588), ('__delattr__', _589), ('__hash__', _590),),
    ),
    'alphred.workflow.provider_keys.FreeFormKeys': (
        ((('frozen', True),), False, (('phase_keys', 'Sequence[PhaseKey]', True, False, True, True, None, True, False, False), ('validate_phase', 'Callable[[ProviderPhase], None] | None', True, False, True, True, None, True, False, False))),
        (('__init__', _591), ('__repr__', _592), ('__eq__', _593), ('__setattr__', _594), ('__delattr__', _595), ('__hash__', _596),),
    ),
    'alphred.workflow.provider_keys.KeyValue': (
        ((('frozen', True),), False, (('name', 'str', False, False, True, True, None, True, False, False), ('node', 'yaml.Node', False, False, True, True, None, True, False, False), ('phase', 'str', False, False, True, True, None, True, False, False), ('out', 'Collector', False, False, True, True, None, True, False, False))),
        (('__init__', _597), ('__repr__', _598), ('__eq__', _599), ('__setattr__', _600), ('__delattr__', _601), ('__hash__', _602),),
    ),
    'alphred.workflow.provider_keys.PhaseKey': (
        ((('frozen', True),), False, (('name', 'str', False, False, True, True, None, True, False, False), ('schema', 'JsonSchema', False, False, True, True, None, True, False, False), ('read', 'Reader', False, False, True, True, None, True, False, False))),
        (('__init__', _603), ('__repr__', _604), ('__eq__', _605), ('__setattr__', _606), ('__delattr__', _607), ('__hash__', _608),),
    ),
    'alphred.workflow.provider_keys.ProviderPhase': (
        ((('frozen', True),), False, (('key', 'str', False, False, True, True, None, True, False, False), ('node', 'yaml.Node', False, False, True, True, None, True, False, False), ('fields', 'Mapping[str, yaml.Node]', False, False, True, True, None, True, False, False), ('settings', 'Mapping[str, Any]', False, False, True, True, None, True, False, False), ('decisions', 'tuple[str, ...]', False, False, True, True, None, True, False, False), ('out', 'Collector', False, False, True, True, None, True, False, False))),
        (('__init__', _609), ('__repr__', _610), ('__eq__', _611), ('__setattr__', _612), ('__delattr__', _613), ('__hash__', _614),),
    ),
    'alphred.workflow.transitions._Listed': (
        ((), False, (('names', 'tuple[str, ...]', True, False, True, True, None, True, False, False), ('nodes', 'tuple[yaml.Node, ...]', True, False, True, True, None, True, False, False), ('guards', 'tuple[Expr | None, ...]', True, False, True, True, None, True, False, False), ('whens', 'tuple[str | None, ...]', True, False, True, True, None, True, False, False), ('when_nodes', 'dict[int, yaml.Node]', False, True, True, True, None, True, False, False))),
        (('__init__', _615), ('__repr__', _616), ('__eq__', _617), ('__hash__', None),),
    ),
    'alphred.workflow.yaml_source.Collector': (
        ((), False, (('file', 'str', False, False, True, True, None, True, False, False), ('diagnostics', 'list[Diagnostic]', False, True, True, True, None, True, False, False), ('_said', 'set[Diagnostic]', False, True, True, False, None, False, False, False))),
        (('__init__', _618), ('__repr__', _619), ('__eq__', _620), ('__hash__', None),),
    ),
    'alphred.workflow.yaml_source.NodeIndex': (
        ((), False, (('phases', 'dict[str, yaml.Node]', False, True, True, True, None, True, False, False), ('transitions', 'dict[tuple[str, int], yaml.Node]', False, True, True, True, None, True, False, False), ('when', 'dict[tuple[str, int], yaml.Node]', False, True, True, True, None, True, False, False), ('templates', 'dict[tuple[str, str], yaml.Node]', False, True, True, True, None, True, False, False), ('body_from', 'yaml.Node | None', True, False, True, True, None, True, False, False), ('pull_request_when', 'yaml.Node | None', True, False, True, True, None, True, False, False), ('start', 'yaml.Node | None', True, False, True, True, None, True, False, False))),
        (('__init__', _621), ('__repr__', _622), ('__eq__', _623), ('__hash__', None),),
    ),
}
