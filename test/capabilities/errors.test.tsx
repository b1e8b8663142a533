// Every capability error: its own code, a message in the spec's notation naming the
// declarations with their bundles and wrappers, and no model call before it.
import {
  Agent,
  defineCapabilities,
  Inherit,
  Namespace,
  RequireApproval,
  Step,
  Tool,
  type JuneNode,
} from 'june';
import { describe, expect, it } from 'vitest';
import { alpha, beta, expectTreeError, model } from './support.js';

const Files = defineCapabilities(() => <Tool name="readFile" value={alpha} />, { name: 'Files' });

describe('two declarations exposing one name', () => {
  it('names both, with the bundle one came through', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Files />
        <Tool name="readFile" value={beta} />
        <Step id="s" prompt="go" />
      </Agent>,
      'capability-collision',
    );
    expect(error.message).toContain('"readFile"');
    expect(error.message).toContain('<Tool name="readFile"> in <Files>');
    expect(error.message).toMatch(/<Tool name="readFile"> in <Files>.* and <Tool name="readFile">/);
  });

  it('names the original tool and its namespace, and the wrappers around each', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Namespace name="github">
          <RequireApproval>
            <Tool name="search" value={alpha} />
          </RequireApproval>
        </Namespace>
        <Tool name="github_search" value={beta} />
      </Agent>,
      'capability-collision',
    );
    expect(error.message).toContain('"github_search"');
    expect(error.message).toContain(
      '<Tool name="search"> in <Namespace name="github"> in <RequireApproval>',
    );
    expect(error.message).toContain('<Tool name="github_search">');
  });

  it('names a tools prop entry beside a declaration', async () => {
    const error = await expectTreeError(
      <Agent model={model} tools={{ readFile: beta }}>
        <Files />
      </Agent>,
      'capability-collision',
    );
    expect(error.message).toContain('<Tool name="readFile"> in <Files>');
    expect(error.message).toContain('tools={{ readFile }}');
  });

  it('says which <Inherit> brought a granted tool that a nested agent also declares', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Namespace name="fs">
          <Files />
        </Namespace>
        <Agent model={model}>
          <Inherit capabilities={['fs_readFile']} />
          <Tool name="fs_readFile" value={beta} />
        </Agent>
      </Agent>,
      'capability-collision',
    );
    expect(error.message).toContain('<Inherit capabilities={["fs_readFile"]}>');
    expect(error.message).toContain(
      'it brought <Tool name="readFile"> in <Namespace name="fs"> in <Files> in the enclosing <Agent>)',
    );
    expect(error.message).toMatch(/and <Tool name="fs_readFile">/);
  });

  it('says which <Inherit> brought a granted tool that the tools prop also has', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="a" value={alpha} />
        <Agent model={model} tools={{ a: beta }}>
          <Inherit capabilities={['a']} />
        </Agent>
      </Agent>,
      'capability-collision',
    );
    expect(error.message).toContain('<Inherit capabilities={["a"]}>');
    expect(error.message).toContain('tools={{ a }}');
  });
});

describe('a capability inside a component of your own', () => {
  function MyTools(): JuneNode {
    return <Tool name="readFile" value={alpha} />;
  }
  function MyBundleUser(): JuneNode {
    return <Files />;
  }

  it('fails, naming the capability and the component, even after a step', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Step id="first" prompt="go" />
        <MyTools />
      </Agent>,
      'capability-in-component',
    );
    expect(error.message).toContain('<Tool name="readFile">');
    expect(error.message).toContain('<MyTools>');
  });

  it('fails for a bundle rendered by a component of your own', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <MyBundleUser />
      </Agent>,
      'capability-in-component',
    );
    expect(error.message).toContain('<Files>');
    expect(error.message).toContain('<MyBundleUser>');
  });
});

describe('a bundle returning something other than capabilities', () => {
  it('fails for a <Step>, naming the bundle and the wrappers around it', async () => {
    const Steps = defineCapabilities(() => <Step id="inside" prompt="no" />, { name: 'Steps' });
    const error = await expectTreeError(
      <Agent model={model}>
        <RequireApproval>
          <Steps />
        </RequireApproval>
      </Agent>,
      'bundle-content-invalid',
    );
    expect(error.message).toContain(
      'the bundle <Steps> in <RequireApproval> returned <Step id="inside">',
    );
  });

  it('fails for a component of your own', async () => {
    function Helper(): JuneNode {
      return null;
    }
    const WithHelper = defineCapabilities(() => <Helper />, { name: 'WithHelper' });
    const error = await expectTreeError(
      <Agent model={model}>
        <WithHelper />
      </Agent>,
      'bundle-content-invalid',
    );
    expect(error.message).toContain('the bundle <WithHelper> returned the component <Helper>');
  });

  it('fails for a nested <Agent>', async () => {
    const WithAgent = defineCapabilities(() => <Agent model={model} />, { name: 'WithAgent' });
    const error = await expectTreeError(
      <Agent model={model}>
        <WithAgent />
      </Agent>,
      'bundle-content-invalid',
    );
    expect(error.message).toContain('<WithAgent> returned <Agent>');
  });

  it('fails for a promise: a bundle is synchronous', async () => {
    const Later = defineCapabilities(
      (async () => <Tool name="a" value={alpha} />) as unknown as () => JuneNode,
      { name: 'Later' },
    );
    const error = await expectTreeError(
      <Agent model={model}>
        <Later />
      </Agent>,
      'bundle-content-invalid',
    );
    expect(error.message).toContain('<Later>');
    expect(error.message).toContain('Promise');
  });
});

describe('a bundle that contains itself', () => {
  it('fails with the chain <A> > <B> > <A>', async () => {
    const A: (props: object) => JuneNode = defineCapabilities(() => <B />, { name: 'A' });
    const B: (props: object) => JuneNode = defineCapabilities(
      () => (
        <Namespace name="x">
          <A />
        </Namespace>
      ),
      { name: 'B' },
    );
    const error = await expectTreeError(
      <Agent model={model}>
        <A />
      </Agent>,
      'bundle-cycle',
    );
    expect(error.message).toContain('<A> > <B> > <A>');
  });

  it('fails with the chain <Loop> > <Loop> for a bundle that renders itself, named after its function', async () => {
    const Self: (props: object) => JuneNode = defineCapabilities(function Loop() {
      return <Self />;
    });
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="a" value={alpha} />
        <Self />
      </Agent>,
      'bundle-cycle',
    );
    expect(error.message).toContain('<Loop> > <Loop>');
  });
});

describe('<Inherit> errors', () => {
  it('a name the parent lacks fails, listing the names the parent has', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="readFile" value={alpha} />
        <Namespace name="gh">
          <Tool name="search" value={beta} />
        </Namespace>
        <Agent model={model}>
          <Inherit capabilities={['deploy']} />
        </Agent>
      </Agent>,
      'inherit-unknown-name',
    );
    expect(error.message).toContain('<Inherit capabilities={["deploy"]}>');
    expect(error.message).toContain('"deploy"');
    expect(error.message).toContain('it has "readFile", "gh_search"');
  });

  it('a name the parent has only inside a namespace fails, and points at the namespaced name', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Namespace name="gh">
          <Tool name="search" value={beta} />
        </Namespace>
        <Agent model={model}>
          <Namespace name="inner">
            <Inherit capabilities={['search']} />
          </Namespace>
        </Agent>
      </Agent>,
      'inherit-unknown-name',
    );
    expect(error.message).toContain('<Inherit capabilities={["search"]}>');
    expect(error.message).toContain('in <Namespace name="inner">');
    expect(error.message).toContain('Did you mean "gh_search"');
  });

  it('a parent with no tools says so', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Agent model={model}>
          <Inherit capabilities={['readFile']} />
        </Agent>
      </Agent>,
      'inherit-unknown-name',
    );
    expect(error.message).toContain('it has no tools');
  });

  it('a name listed twice in one <Inherit> fails', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="readFile" value={alpha} />
        <Agent model={model}>
          <Inherit capabilities={['readFile', 'readFile']} />
        </Agent>
      </Agent>,
      'inherit-duplicate-name',
    );
    expect(error.message).toContain('"readFile"');
    expect(error.message).toContain('<Inherit capabilities={["readFile","readFile"]}>');
  });

  it('a name listed by two <Inherit>s fails, naming both', async () => {
    const Grants = defineCapabilities(() => <Inherit capabilities={['readFile']} />, {
      name: 'Grants',
    });
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="readFile" value={alpha} />
        <Agent model={model}>
          <Inherit capabilities={['readFile']} />
          <Grants />
        </Agent>
      </Agent>,
      'inherit-duplicate-name',
    );
    expect(error.message).toMatch(
      /<Inherit capabilities=\{\["readFile"\]\}>.* and <Inherit capabilities=\{\["readFile"\]\}>.* in <Grants>/,
    );
  });

  it('capabilities that are not a list of names fail', async () => {
    const LooseInherit = Inherit as unknown as (props: { capabilities: unknown }) => JuneNode;
    const error = await expectTreeError(
      <Agent model={model}>
        <Tool name="readFile" value={alpha} />
        <Agent model={model}>
          <LooseInherit capabilities="readFile" />
        </Agent>
      </Agent>,
      'inherit-capabilities-invalid',
    );
    expect(error.message).toContain('<Inherit>');
    expect(error.message).toContain('capabilities={["toolName", ...]}');
  });

  it('<Inherit> with no agent around it fails', async () => {
    const error = await expectTreeError(
      <Inherit capabilities={['readFile']} />,
      'inherit-outside-agent',
    );
    expect(error.message).toContain('<Inherit capabilities={["readFile"]}>');
  });

  it('<Inherit> in an agent that no other agent encloses fails', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Inherit capabilities={['readFile']} />
      </Agent>,
      'inherit-outside-agent',
    );
    expect(error.message).toContain('<Inherit capabilities={["readFile"]}>');
  });
});

describe('an invalid namespace name', () => {
  for (const name of ['bad name', '1github', 'git_hub', '', '-x']) {
    it(`fails for ${JSON.stringify(name)}, naming the namespace and what is allowed`, async () => {
      const error = await expectTreeError(
        <Agent model={model}>
          <Files />
          <Namespace name={name}>
            <Tool name="search" value={alpha} />
          </Namespace>
        </Agent>,
        'namespace-name-invalid',
      );
      expect(error.message).toContain(`<Namespace name=${JSON.stringify(name)}>`);
      expect(error.message).toContain('letters, digits and hyphens, starting with a letter');
    });
  }

  it('names the bundle an invalid namespace came through', async () => {
    const Wrapped = defineCapabilities(
      () => (
        <Namespace name="no spaces">
          <Tool name="a" value={alpha} />
        </Namespace>
      ),
      { name: 'Wrapped' },
    );
    const error = await expectTreeError(
      <Agent model={model}>
        <Wrapped />
      </Agent>,
      'namespace-name-invalid',
    );
    expect(error.message).toMatch(/<Namespace name="no spaces">.* in <Wrapped>/);
  });

  it('fails for a namespace without a name', async () => {
    const NamelessNamespace = Namespace as (props: { children?: JuneNode }) => JuneNode;
    const error = await expectTreeError(
      <Agent model={model}>
        <NamelessNamespace>
          <Tool name="a" value={alpha} />
        </NamelessNamespace>
      </Agent>,
      'namespace-name-invalid',
    );
    expect(error.message).toContain('has no name');
  });
});

describe('a wrapper holding something other than capabilities', () => {
  it('fails for a <Step> in <RequireApproval>', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <RequireApproval>
          <Tool name="a" value={alpha} />
          <Step id="s" prompt="go" />
        </RequireApproval>
      </Agent>,
      'wrapper-content-invalid',
    );
    expect(error.message).toContain('<RequireApproval> holds <Step id="s">');
  });

  it('fails for a nested <Agent> in a <Namespace>, naming the wrappers around it', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <RequireApproval>
          <Namespace name="gh">
            <Agent model={model} />
          </Namespace>
        </RequireApproval>
      </Agent>,
      'wrapper-content-invalid',
    );
    expect(error.message).toContain('<Namespace name="gh"> in <RequireApproval> holds <Agent>');
  });

  it('fails for a component of your own and for text', async () => {
    function Helper(): JuneNode {
      return null;
    }
    const component = await expectTreeError(
      <Agent model={model}>
        <Namespace name="gh">
          <Helper />
        </Namespace>
      </Agent>,
      'wrapper-content-invalid',
    );
    expect(component.message).toContain('<Namespace name="gh"> holds the component <Helper>');
    const text = await expectTreeError(
      <Agent model={model}>
        <RequireApproval>some text</RequireApproval>
      </Agent>,
      'wrapper-content-invalid',
    );
    expect(text.message).toContain('<RequireApproval> holds "some text"');
  });
});

describe('other declaration errors', () => {
  it('a capability with no agent around it fails', async () => {
    const error = await expectTreeError(
      <Tool name="a" value={alpha} />,
      'capability-outside-agent',
    );
    expect(error.message).toContain('<Tool name="a">');
  });

  it('a namespaced name longer than 64 characters fails, naming the declaration and namespaces', async () => {
    const long = 'n'.repeat(40);
    const error = await expectTreeError(
      <Agent model={model}>
        <Namespace name={long}>
          <Tool name={'t'.repeat(30)} value={alpha} />
        </Namespace>
      </Agent>,
      'tool-name-invalid',
    );
    expect(error.message).toContain(`in <Namespace name="${long}">`);
    expect(error.message).toContain('1 to 64 characters');
  });

  it('a <Tool> whose value is not an AI SDK tool fails', async () => {
    const error = await expectTreeError(
      <Agent model={model}>
        <Files />
        <Tool name="broken" value={(() => 'x') as never} />
      </Agent>,
      'tool-value-invalid',
    );
    expect(error.message).toContain('<Tool name="broken">');
  });
});
