import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type BertShape, bertModel, type GraphVariant } from './bert-graph.ts';

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = `the a an of to in on at for with by from and or but not is are was were be been has have had do does
did will would can could should may might must it its this that these those he she they we you i me him her them us my
your his their our what which who whom where when why how all any both each few more most other some such no nor only
own same so than too very just now then there here up down out over under again once about into through during before
after above below between same new old good bad big small long short high low first last next early late young great
little right left day week month year time today tomorrow morning evening night hour minute monday friday june march
user team project report meeting standup room database server host memory memories note notes file files code test
tests bug bugs fix release deploy staging production replica replicas query queries search recall remember model models
vector vectors text texts word words dog dogs cat cats pet pets puppy apple apples tree trees red blue green colour color
favourite favorite car cars house home city food coffee tea water book books music sam alice bob owns adopted golden
retriever moved approved finance lead expense expenses weekly quarterly due end`
  .split(/\s+/)
  .filter((w, i, all) => w && all.indexOf(w) === i);
const CHARACTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
const LETTERS = CHARACTERS.filter((c) => !WORDS.includes(c));
const PUNCTUATION = '.,!?\'-:;()/@#$%&*+="'.split('');

/**
 * WordPiece vocabulary: special tokens, words (the test words, then `extra` lower-case words not
 * among them), single characters and their ## continuations.
 */
export function testVocabulary(extra: readonly string[] = []): string[] {
  const known = new Set([...WORDS, ...CHARACTERS]);
  const more = extra.filter((w) => /^[a-z]+$/.test(w) && !known.has(w) && known.add(w));
  return [...SPECIAL, ...WORDS, ...more, ...LETTERS, ...CHARACTERS.map((c) => `##${c}`), ...PUNCTUATION];
}

/** A Hugging Face tokenizer.json for a lower-casing BERT WordPiece tokenizer over `vocab`. */
function tokenizerJson(vocab: string[]) {
  const id = (t: string) => vocab.indexOf(t);
  const special = (t: string) => ({ SpecialToken: { id: t, type_id: 0 } });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special('[CLS]'), { Sequence: { id: 'A', type_id: 0 } }, special('[SEP]')],
      pair: [
        special('[CLS]'),
        { Sequence: { id: 'A', type_id: 0 } },
        special('[SEP]'),
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [id(t)], tokens: [t] }])),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((t, i) => [t, i])),
    },
  };
}

export interface TestModelOptions extends Partial<GraphVariant> {
  /** Sizes; the vocabulary is always the test one. Default: 2 layers of 32, 64 inner, 64 positions. */
  shape?: Partial<Omit<BertShape, 'vocab'>>;
  /** Write 1_Pooling/config.json with this mode (sentence-transformers' names). */
  pooling?: 'mean' | 'cls' | 'lasttoken';
  /**
   * More whole words for the vocabulary (by default about 250 test words, and anything else is
   * spelt out letter by letter, which makes most texts alike): memory-api's suites add the
   * 10,000 most frequent English words so that their texts are mostly whole words.
   */
  words?: readonly string[];
  /** Leave this file out, to test the loader's refusal. */
  omit?: 'tokenizer.json' | 'tokenizer_config.json' | 'onnx/model.onnx';
}

export const TEST_SHAPE: Omit<BertShape, 'vocab'> = {
  hidden: 32,
  layers: 2,
  intermediate: 64,
  maxPositions: 64,
  seed: 7,
};

/** BERT-base's sizes (12 layers of 768, 3072 inner, 512 positions) over the test vocabulary. */
export const BERT_BASE_SHAPE: Omit<BertShape, 'vocab'> = {
  hidden: 768,
  layers: 12,
  intermediate: 3072,
  maxPositions: 512,
  seed: 7,
};

/** BERT-small's compute (4 layers of 512, 2048 inner). */
export const BERT_SMALL_SHAPE: Omit<BertShape, 'vocab'> = {
  hidden: 512,
  layers: 4,
  intermediate: 2048,
  maxPositions: 512,
  seed: 7,
};

/**
 * Writes a Hugging Face style model directory (onnx/model.onnx, tokenizer.json,
 * tokenizer_config.json, config.json) for a BERT-shaped model whose weights make texts that share
 * words similar (bert-graph.ts, testWeights). Returns the full shape, so that a test can recompute
 * the weights and the expected vectors itself.
 */
export async function writeTestModel(dir: string, options: TestModelOptions = {}): Promise<BertShape> {
  const vocab = testVocabulary(options.words);
  const shape: BertShape = { ...TEST_SHAPE, ...options.shape, vocab };
  const variant: GraphVariant = {
    tokenTypeIds: options.tokenTypeIds ?? true,
    outputs: options.outputs ?? 'last_hidden_state',
  };
  await mkdir(join(dir, 'onnx'), { recursive: true });
  const files: Record<string, string | Uint8Array> = {
    'onnx/model.onnx': bertModel(shape, variant),
    'tokenizer.json': JSON.stringify(tokenizerJson(vocab)),
    'tokenizer_config.json': JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: shape.maxPositions,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
    'config.json': JSON.stringify({
      _name_or_path: 'trove/test-bert',
      model_type: 'bert',
      hidden_size: shape.hidden,
      num_hidden_layers: shape.layers,
      intermediate_size: shape.intermediate,
      max_position_embeddings: shape.maxPositions,
      vocab_size: vocab.length,
    }),
  };
  if (options.pooling) {
    await mkdir(join(dir, '1_Pooling'), { recursive: true });
    files['1_Pooling/config.json'] = JSON.stringify({
      word_embedding_dimension: shape.hidden,
      pooling_mode_cls_token: options.pooling === 'cls',
      pooling_mode_mean_tokens: options.pooling === 'mean',
      pooling_mode_max_tokens: false,
      pooling_mode_lasttoken: options.pooling === 'lasttoken',
    });
  }
  for (const [name, content] of Object.entries(files)) {
    if (name !== options.omit) await writeFile(join(dir, name), content);
  }
  return shape;
}
