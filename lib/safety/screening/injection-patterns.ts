/** A named injection pattern: tool output matching it is screened. */
export interface InjectionPattern {
  name: string;
  regex: RegExp;
}

const WS = '\\s+';
const FILLER = '(?:(?:all|any|the|your|of|these|those|my|every)\\s+)*';

/**
 * The 15 built-in prompt-injection patterns (the spec's Limits), matched against normalised text
 * (NFKC, invisible characters removed, homoglyphs folded), case-insensitively.
 */
export const BUILT_IN_INJECTION_PATTERNS: readonly InjectionPattern[] = [
  {
    name: 'ignore_instructions',
    regex: new RegExp(`\\b(?:ignore|disregard|forget|skip|override|bypass|neglect)${WS}${FILLER}(?:previous|prior|above|earlier|preceding|former|initial|original|system|existing|foregoing)${WS}(?:instructions?|prompts?|rules|directions|directives|guidelines|context|messages|commands|orders)\\b`, 'gi'),
  },
  {
    name: 'new_instructions',
    regex: /\b(?:new|updated|revised|real|actual|true)\s+(?:instructions|system\s+prompt|directives?)\s*(?::|are\b|follow\b)|\byour\s+(?:new|real|actual|true)\s+(?:task|goal|instructions?|purpose|objective|role)\s+(?:is|are|now)\b/gi,
  },
  {
    name: 'reveal_prompt',
    regex: /\b(?:reveal|print|show|repeat|output|leak|display|dump|disclose|tell\s+me|give\s+me|send\s+me)\s+(?:me\s+)?(?:your|the)\s+(?:(?:full|entire|original|hidden|secret|complete|exact)\s+)*(?:system\s+prompt|system\s+message|initial\s+instructions|hidden\s+instructions|instructions\s+above|prompt\s+above|developer\s+message)\b/gi,
  },
  {
    name: 'role_override',
    regex: /\byou\s+are\s+now\s+(?:an?\s+)?(?:DAN|unrestricted|unfiltered|uncensored|jailbroken|evil|free\s+(?:from|of)|no\s+longer|in\s+(?:developer|god|admin|jailbreak|unrestricted)\s+mode|acting\s+as|my\s+(?:assistant|agent|slave))\b|\byou\s+are\s+no\s+longer\s+(?:an?\s+)?(?:AI|assistant|bound|restricted|required|limited)\b|\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall)\b|\b(?:pretend|imagine)\s+(?:to\s+be|you\s+are|that\s+you\s+are)\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|evil|different)\b|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|uncensored)\b/gi,
  },
  {
    name: 'fake_role_tag',
    regex: /<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>|\[\/?(?:INST|SYSTEM)\]|<<\/?SYS>>|<\/?(?:system|system_prompt|admin_instructions)>|^[ \t]*#{2,}[ \t]*(?:system|new\s+instructions?)[ \t]*:?[ \t]*$/gim,
  },
  {
    name: 'jailbreak_mode',
    regex: /\b(?:DAN|god|jailbreak|unrestricted|unfiltered)\s+mode\b|\bdo\s+anything\s+now\b|\bjailbreak(?:ed)?\s+(?:prompt|mode|the\s+(?:AI|assistant|model))\b/gi,
  },
  {
    name: 'conceal_from_user',
    regex: /\b(?:do\s+not|don't|never)\s+(?:tell|inform|mention|reveal|show|notify|alert|let)\s+(?:(?:this|it|anything)\s+(?:to\s+)?)?(?:the\s+)?user\b|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+(?:the\s+)?user\b|\bkeep\s+(?:this|it)\s+(?:secret|hidden)\s+from\s+(?:the\s+)?user\b/gi,
  },
  {
    name: 'exfiltrate',
    regex: /\b(?:send|post|upload|forward|e-?mail|transmit|exfiltrate|leak|copy)\s+(?:(?:all|the|your|any|this|every|of)\s+)*(?:conversation|chat\s+history|message\s+history|messages|credentials|api\s+keys?|secrets?|passwords?|tokens?|private\s+data|user\s+data|personal\s+data|session\s+data|context|memory|system\s+prompt)\b[^.\n]{0,60}?\b(?:to|at|into)\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.|\S+\.(?:com|net|org|io|xyz|ru|cn)\b)[^\s"'<>)]*/gi,
  },
  {
    name: 'invoke_tool',
    regex: /\b(?:you\s+must|you\s+should\s+now|immediately|assistant,?)\s+(?:call|invoke|execute|run|use)\s+(?:the\s+)?[\w.-]+\s+(?:tool|function)\b|\b(?:execute|run)\s+the\s+following\s+(?:shell\s+)?command\s+(?:immediately|now|without)\b/gi,
  },
  {
    name: 'markdown_exfil',
    regex: /!\[[^\]\n]{0,200}\]\(\s*https?:\/\/[^)\s]{1,300}?[?&][\w-]{1,20}=[^)\s]*?(?:\{|%7B|\$\(|<|\[)|<img\b[^>]{0,200}\bsrc=\\?["']?https?:\/\/[^"'\s>\\]{1,300}?[?&][\w-]{1,20}=[^"'\s>\\]*?(?:\{|%7B|\$\(|\[)/gi,
  },
  {
    name: 'disable_safety',
    regex: new RegExp(`\\b(?:disable|ignore|bypass|turn\\s+off|deactivate|remove|override|forget|circumvent)${WS}${FILLER}(?:safety|content|security|ethical|moderation)${WS}(?:filters?|guidelines|restrictions|policies|rules|protocols|measures|checks|settings|guardrails)\\b`, 'gi'),
  },
  {
    name: 'priority_claim',
    regex: /\b(?:this|these|the\s+following)\s+(?:instructions?|messages?|commands?|directives?)\s+(?:takes?|has|have|overrides?|supersedes?)\s+(?:priority|precedence|all|any)\b|\bhighest[\s-]priority\s+(?:instruction|directive|command|override)\b|\b(?:supersedes?|overrides?)\s+(?:all\s+|any\s+)?(?:previous|prior|other|system|your)\s+(?:instructions|prompts|rules)\b/gi,
  },
  {
    name: 'address_ai',
    regex: /\b(?:attention|note|message|instructions?|important|urgent|hey|dear)\s*(?:to|for)?\s*(?:the\s+|all\s+|any\s+)?(?:AI|LLMs?|assistants?|language\s+models?|chatbots?|AI\s+agents?|AI\s+assistants?|AI\s+models?)\s*[:!,]|\bif\s+you\s+are\s+an?\s+(?:AI|LLM|large\s+language\s+model|language\s+model|AI\s+assistant|AI\s+agent|assistant)\b(?:\s+(?:reading|processing|summari[sz]ing)|,)/gi,
  },
  {
    name: 'encoded_payload',
    regex: /\b(?:decode|decipher|base64[\s-]?decode|rot13|unscramble)\s+(?:this|the\s+following|it|the\s+(?:text|string|message)\s+below)\b[^.\n]{0,80}?\b(?:and|then)\s+(?:follow|execute|run|obey|do|perform|carry\s+out|apply)\b|\b(?:follow|execute|obey|run)\s+(?:the\s+)?(?:decoded|hidden|encoded|base64)\s+(?:instructions?|text|message|payload|commands?)\b/gi,
  },
  {
    name: 'foreign_override',
    regex: /\bignor(?:a|ar|e)\s+(?:todas\s+)?(?:las\s+)?instrucciones\s+(?:anteriores|previas)|\bignore[zr]?\s+(?:toutes\s+)?(?:les\s+)?(?:instructions|consignes)\s+(?:précédentes|precedentes|antérieures)|\bignorier(?:e|en)?\s+(?:alle\s+)?(?:vorherigen|bisherigen|vorigen|obigen)\s+(?:Anweisungen|Instruktionen|Befehle)|\bvergiss\s+(?:alle\s+)?(?:vorherigen\s+|bisherigen\s+)?Anweisungen|\bignora\s+(?:tutte\s+)?le\s+istruzioni\s+precedenti|\bignore\s+(?:todas\s+)?as\s+instruções\s+anteriores|\bnegeer\s+(?:alle\s+)?(?:vorige|eerdere|voorgaande)\s+instructies|игнорируй(?:те)?\s+(?:\S+\s+)?(?:предыдущие|прошлые)\s+(?:инструкции|указания)|забудь(?:те)?\s+(?:\S+\s+)?(?:предыдущие\s+)?инструкции|(?:忽略|无视|忽视)(?:之前|以上|先前|上面|前面|所有)的?(?:所有)?(?:指令|指示|说明)|(?:以前|前|上記)の(?:すべての)?指示を無視|이전\s*(?:의\s*)?(?:모든\s*)?지시(?:를|사항을)?\s*무시/gi,
  },
];
